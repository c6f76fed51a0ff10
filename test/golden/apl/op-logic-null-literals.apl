// expect: null and true = null, null or true = true, null and false = false, null or false = null, not(null) = null, not(true) = false
print a = bool(null) and true, b = bool(null) or true, c = bool(null) and false, d = bool(null) or false, e = not(bool(null)), f = not(true)
