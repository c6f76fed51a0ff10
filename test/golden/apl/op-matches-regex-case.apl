// expect: matches regex is case-sensitive unless (?i); null msg false -> 2, 3, 3
ds | summarize a = countif(msg matches regex "login"), b = countif(msg matches regex "(?i)LOGIN"), c = countif(status matches regex "^5")
