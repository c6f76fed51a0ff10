// Kusto: let statement, "Use a materialize function" (a let of materialize(T) used twice, joined with
// itself); materialize is accepted and T is used as is. Pairs of days d1 < d2 of {1, 2, 3}: 3 rows.
// https://learn.microsoft.com/kusto/query/let-statement
let cachedResult = materialize(range Day from 1 to 3 step 1 | extend Page = "p");
cachedResult
| project Page, Day1 = Day
| join kind = inner (cachedResult | project Page, Day2 = Day) on Page
| where Day2 > Day1
| project Day1, Day2
| sort by Day1 asc, Day2 asc
