// expect: "This was an example of using replace_strings()" ('This' matched but kept, its 'is' not replaced) (source: https://learn.microsoft.com/kusto/query/replace-strings-function, "Non-string replacement")
 print Message="This is an example of using replace_strings()"
| extend Outcome = replace_strings(
        Message,
        dynamic(['This', 'is']), // Lookup strings
        dynamic([12345, 'was']) // Replacements
        )
