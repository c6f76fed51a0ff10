// expect: dcount(toint(retry)) = 4 {0,1,2,3}; dcount(tostring(retry)) = 6 {3,1,0,2,x,""}
ds | summarize a = dcount(toint(retry)), b = dcount(tostring(retry))
