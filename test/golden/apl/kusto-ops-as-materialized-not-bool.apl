// expect: hint.materialized is a bool; another value is an invalid argument: error invalid apl_invalid_argument (source: https://learn.microsoft.com/kusto/query/as-operator, the parameter table: hint.materialized, type bool)
range x from 1 to 3 step 1
| as hint.materialized="yes" T
| count
