// expect: \(so\$me\.Te\^xt\) (the page's table doubles every backslash after the first, a rendering slip of its Markdown; regex_quote escapes each special character once) (source: https://learn.microsoft.com/kusto/query/regex-quote-function)
print result = regex_quote('(so$me.Te^xt)')
