// Kusto: https://learn.microsoft.com/kusto/query/bag-has-key-function (both examples) -- key2 present: true, absent: false; the JSONPath $.key2.prop1: true
datatable(input: dynamic)
[
    dynamic({'key1' : 123, 'key2': 'abc'}),
    dynamic({'key1' : 123, 'key3': 'abc'}),
    dynamic({'key1': 123, 'key2': {'prop1' : 'abc', 'prop2': 'xyz'}, 'key3': [100, 200]})
]
| extend result = bag_has_key(input, 'key2'), nested = bag_has_key(input, '$.key2.prop1')
| project result, nested
