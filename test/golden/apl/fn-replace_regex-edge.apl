// expect: a="a<1>b<22>" ($1 group), b="abc" (no match), c="[x][y]" ($0), d="" (all removed)
print a = replace_regex("([0-9]+)", "<$1>", "a1b22"), b = replace_regex("z", "y", "abc"), c = replace_regex("[a-z]", "[$0]", "xy"), d = replace_regex(".", "", "abc")
