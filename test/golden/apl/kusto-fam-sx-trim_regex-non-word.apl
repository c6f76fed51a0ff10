// expect: Te st1 .. Te st5 (Kusto's trim takes a regex: APL's trim_regex) (source: https://learn.microsoft.com/kusto/query/trim-function)
range x from 1 to 5 step 1
| project str = strcat("-  ","Te st",x,@"// $")
| extend trimmed_str = trim_regex(@"[^\w]+",str)
