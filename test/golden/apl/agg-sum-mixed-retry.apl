// expect: sum(toint(retry)) over long and string values, "x"/missing skipped: 3+1+0+2+3+2 = 11
ds | summarize s = sum(toint(retry))
