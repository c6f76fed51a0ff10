// Kusto: print, "Print sum and variable value" (print_0 15, x "Wow!").
// https://learn.microsoft.com/kusto/query/print-operator
print 0 + 1 + 2 + 3 + 4 + 5, x = "Wow!"
