// expect: "hello world"; "Line 1\nLine 2\nLine 3" (source: https://learn.microsoft.com/kusto/query/strcat-function, both examples)
print str = strcat("hello", " ", "world"), MultiLineString = strcat("Line 1\n", "Line 2\n", "Line 3")
