// expect: keys ["a","c"] for the three bags, null for null, [] for {}, null for 'a' and for [] (the page's empty cells) (source: https://learn.microsoft.com/kusto/query/bag-keys-function)
datatable(index:long, d:dynamic) [
    1, dynamic({'a':'b', 'c':123}),
    2, dynamic({'a':'b', 'c':{'d':123}}),
    3, dynamic({'a':'b', 'c':[{'d':123}]}),
    4, dynamic(null),
    5, dynamic({}),
    6, dynamic('a'),
    7, dynamic([])
]
| extend keys = bag_keys(d)
