// expect: a=42 (typed long), b=null (no match), c=null ("" input no match), d="b2" (verbatim regex)
print a = extract("([0-9]+)", 1, "id=42", typeof(long)), b = extract("([0-9]+)", 1, "none", typeof(long)), c = extract("([a-z]+)", 0, ""), d = extract(@"([a-z]\d)", 1, "--b2--")
