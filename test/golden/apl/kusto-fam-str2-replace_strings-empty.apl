// expect: "A magic trick can disappear a cat" (an empty rewrite removes the match) (source: https://learn.microsoft.com/kusto/query/replace-strings-function, "Replacement with an empty string")
print Message="A magic trick can turn a cat into a dog"
| extend Outcome = replace_strings(
        Message,
        dynamic(['turn', ' into a dog']), // Lookup strings
        dynamic(['disappear', '']) // Replacements
        )
