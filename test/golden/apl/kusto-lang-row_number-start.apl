// Kusto: row_number(), second example ("only the second column (rn) starts at 7").
// https://learn.microsoft.com/kusto/query/row-number-function
range a from 1 to 10 step 1
| sort by a desc
| extend rn=row_number(7)
