// Kusto: datatable, the example (rows whose Event is longer than 4: 1930 "Enters Ecole Navale" value4,
// 1953 "Published first book" value6; a trailing comma ends the rows).
// https://learn.microsoft.com/kusto/query/datatable-operator
datatable(Date:datetime, Event:string, MoreData:dynamic) [
    datetime(1910-06-11), "Born", dynamic({"key1":"value1", "key2":"value2"}),
    datetime(1930-01-01), "Enters Ecole Navale", dynamic({"key1":"value3", "key2":"value4"}),
    datetime(1953-01-01), "Published first book", dynamic({"key1":"value5", "key2":"value6"}),
    datetime(1997-06-25), "Died", dynamic({"key1":"value7", "key2":"value8"}),
]
| where strlen(Event) > 4
| extend key2 = MoreData.key2
