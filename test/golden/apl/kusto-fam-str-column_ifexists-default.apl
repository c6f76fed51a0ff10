// expect: the State column itself (header State), ATLANTIC SOUTH, FLORIDA, FLORIDA, GEORGIA, MISSISSIPPI x4, AMERICAN SAMOA, KENTUCKY: no column Capital, so the default (source: https://learn.microsoft.com/kusto/query/column-ifexists-function, the example; the ten StormEvents rows the page prints are a datatable here)
datatable(State: string)
[
    "ATLANTIC SOUTH", "FLORIDA", "FLORIDA", "GEORGIA", "MISSISSIPPI",
    "MISSISSIPPI", "MISSISSIPPI", "MISSISSIPPI", "AMERICAN SAMOA", "KENTUCKY"
]
| project column_ifexists("Capital", State)
