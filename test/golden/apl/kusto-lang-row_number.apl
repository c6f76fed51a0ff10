// Kusto: row_number(), first example (a from 10 down to 1, rn from 1 up to 10).
// https://learn.microsoft.com/kusto/query/row-number-function
range a from 1 to 10 step 1
| sort by a desc
| extend rn=row_number()
