// expect: "A magic trick can turn a dog into a pigeon" (cat → dog and dog → pigeon at once) (source: https://learn.microsoft.com/kusto/query/replace-strings-function, "Simple replacement")
print Message="A magic trick can turn a cat into a dog"
| extend Outcome = replace_strings(
        Message,
        dynamic(['cat', 'dog']), // Lookup strings
        dynamic(['dog', 'pigeon']) // Replacements
        )
