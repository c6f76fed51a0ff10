// expect: Outcome1 "This was an example of using replace_strings()", Outcome2 "Thwas was an example of using replace_strings()" (the earlier lookup takes precedence) (source: https://learn.microsoft.com/kusto/query/replace-strings-function, "Replacement order")
 print Message="This is an example of using replace_strings()"
| extend Outcome1 = replace_strings(
        Message,
        dynamic(['This', 'is']), // Lookup strings
        dynamic(['This', 'was']) // Replacements
        ),
        Outcome2 = replace_strings(
        Message,
        dynamic(['is', 'This']), // Lookup strings
        dynamic(['was', 'This']) // Replacements
        )
