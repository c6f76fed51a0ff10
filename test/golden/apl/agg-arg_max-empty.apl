// expect: no rows and no by: one row of nulls typed like the expression and the column (float, string)
ds | where false | summarize arg_max(dur, method)
