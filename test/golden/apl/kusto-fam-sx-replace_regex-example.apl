// expect: Number was: 1 .. Number was: 5 (the page prints 1.000000: x of range is a long, whose text is 1; the rewrite is what is checked; arguments in Axiom's order replace_regex(regex, rewrite, text), docs/apl.md) (source: https://learn.microsoft.com/kusto/query/replace-regex-function)
range x from 1 to 5 step 1
| extend str=strcat('Number is ', tostring(x))
| extend replaced=replace_regex(@'is (\d+)', @'was: \1', str)
