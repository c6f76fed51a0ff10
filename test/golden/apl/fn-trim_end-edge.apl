// expect: a="0012", b="ab" (set of chars .!), c=""
print a = trim_end("0", "00120"), b = trim_end(".!", "ab!.!"), c = trim_end("z", "")
