// expect: true, true (source: https://learn.microsoft.com/kusto/query/toupper-function, https://learn.microsoft.com/kusto/query/tolower-function, the examples)
print up = toupper("hello") == "HELLO", low = tolower("Hello") == "hello"
