// expect: 1 ["['a']","['c']"]; 2 ["['prop1']","['prop1'][0]","['prop2']"]; 3 ["['listProperty']","['listProperty'][0]","['listProperty'][0]['x']"] (source: https://learn.microsoft.com/kusto/query/treepath-function)
datatable(n: long, s: string) [
    1, '{"a":"b", "c":123}',
    2, '{"prop1":[1,2,3,4], "prop2":"value2"}',
    3, '{"listProperty":[100,200,300,"abcde",{"x":"y"}]}'
]
| extend paths = treepath(parse_json(s))
| project n, paths
| order by n asc
