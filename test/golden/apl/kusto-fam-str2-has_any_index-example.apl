// expect: idx1 0, idx2 1, idx3 -1, idx4 1 (the integer 2 of range(1, 3, 1) is a term of "Example number 2"), idx5 -1 (source: https://learn.microsoft.com/kusto/query/has-any-index-function)
print
 idx1 = has_any_index("this is an example", dynamic(['this', 'example']))  // first lookup found in input string
 , idx2 = has_any_index("this is an example", dynamic(['not', 'example'])) // last lookup found in input string
 , idx3 = has_any_index("this is an example", dynamic(['not', 'found'])) // no lookup found in input string
 , idx4 = has_any_index("Example number 2", range(1, 3, 1)) // Lookup array of integers
 , idx5 = has_any_index("this is an example", dynamic([]))  // Empty lookup array
