// expect: {"key1":123}; {"key1":"value","key3":42.0} unchanged; with JSONPath: {"key1":123,"key2":{"prop2":"xyz"}} (a Quarry extension, docs/apl.md) (source: https://learn.microsoft.com/kusto/query/bag-remove-keys-function)
datatable(n: long, input:dynamic)
[
    1, dynamic({'key1' : 123,     'key2': 'abc'}),
    2, dynamic({'key1' : 'value', 'key3': 42.0}),
]
| extend result=bag_remove_keys(input, dynamic(['key2', 'key4']))
| union (datatable(n: long, input:dynamic)
[
    3, dynamic({'key1': 123, 'key2': {'prop1' : 'abc', 'prop2': 'xyz'}, 'key3': [100, 200]}),
]
| extend result=bag_remove_keys(input, dynamic(['$.key2.prop1', 'key3'])))
| order by n asc
