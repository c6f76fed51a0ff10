// expect: "A magic trick can turn a hamster into a dog" (source: https://learn.microsoft.com/kusto/query/replace-string-function, "Replace words in a string"). Arguments in Axiom's order replace_string(lookup, rewrite, text); Kusto's page writes replace_string(Message, "cat", "hamster") (docs/apl.md)
print Message="A magic trick can turn a cat into a dog"
| extend Outcome = replace_string("cat", "hamster", Message)
