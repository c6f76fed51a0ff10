// expect: {a:1,b:"2",c:3.4}; {a:1,b:"2",c:null}; {a:1,b:"2"}; non-string keys ignored {a:1,b:2.5}; values not an array {a:null,b:null}; keys not an array -> null, IsNewBagEmpty true (source: https://learn.microsoft.com/kusto/query/bag-zip)
let Data = datatable(n: long, KeysArray: dynamic, ValuesArray: dynamic) [
    1, dynamic(['a', 'b', 'c']), dynamic([1, '2', 3.4]),
    2, dynamic(['a', 'b', 'c']), dynamic([1, '2']),
    3, dynamic(['a', 'b']), dynamic([1, '2', 2.5]),
    4, dynamic(['a', 8, 'b']), dynamic([1, '2', 2.5]),
    5, dynamic(['a', 8, 'b']), dynamic(1),
    6, dynamic('a'), dynamic([1, '2', 2.5])
];
Data
| extend NewBag = bag_zip(KeysArray, ValuesArray)
| extend IsNewBagEmpty = isnull(NewBag)
| order by n asc
