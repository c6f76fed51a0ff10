// expect: iff returns branch type; a=1 (integer), b=2.5 (float), c="y", d=null via dynamic(null)/typed null branch
print a = iff(true, 1, 2), b = iff(false, 1.5, 2.5), c = iff(1 > 2, "x", "y"), d = iff(false, 1, int(null))
