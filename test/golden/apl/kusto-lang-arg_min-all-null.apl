// Kusto: arg_min(), null handling example: Banana (every Version null) answers its first row.
// https://learn.microsoft.com/kusto/query/arg-min-aggregation-function
datatable(Fruit: string, Color: string, Version: int) [
    "Apple", "Red", 1,
    "Apple", "Green", int(null),
    "Banana", "Yellow", int(null),
    "Banana", "Green", int(null),
    "Pear", "Brown", 1,
    "Pear", "Green", 2,
]
| summarize arg_min(Version, *) by Fruit
