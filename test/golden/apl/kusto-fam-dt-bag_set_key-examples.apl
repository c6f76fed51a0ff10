// expect: {"key1":1,"key2":2,"key3":3}; {"key1":1,"key3":3}; with JSONPath: {"key1":123,"key2":{"prop1":"abc","prop2":"xyz"}}; {"key1":123,"key2":{"prop1":"abc"}} (a Quarry extension, docs/apl.md) (source: https://learn.microsoft.com/kusto/query/bag-set-key-function)
datatable(n: long, input: dynamic)
[
    1, dynamic({'key1': 1, 'key2': 2}),
    2, dynamic({'key1': 1, 'key3': 'abc'}),
]
| extend result = bag_set_key(input, 'key3', 3)
| union (datatable(n: long, input: dynamic)
[
    3, dynamic({'key1': 123, 'key2': {'prop1': 123, 'prop2': 'xyz'}}),
    4, dynamic({'key1': 123})
]
| extend result = bag_set_key(input, '$.key2.prop1', 'abc'))
| order by n asc
