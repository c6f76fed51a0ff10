// Kusto: range, "Incremented steps" (Steps: 1, 4, 7).
// https://learn.microsoft.com/kusto/query/range-operator
range Steps from 1 to 8 step 3
