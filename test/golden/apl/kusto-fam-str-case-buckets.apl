// expect: 1 Small, 3 Small, 5 Medium, 7 Medium, 9 Medium, 11 Large, 13 Large, 15 Large (source: https://learn.microsoft.com/kusto/query/case-function, the example)
range Size from 1 to 15 step 2
| extend bucket = case(Size <= 3, "Small",
                       Size <= 10, "Medium",
                       "Large")
