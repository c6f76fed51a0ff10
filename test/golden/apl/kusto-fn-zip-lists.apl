// expect: two make_list columns zipped -> [[1,"one"],[2,"two"],[3,"three"]] (source: https://learn.microsoft.com/kusto/query/zip-function, the page's example)
datatable(a:int, b:string) [1,"one",2,"two",3,"three"]
| summarize a = make_list(a), b = make_list(b)
| project zip(a, b)
