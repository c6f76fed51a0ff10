// expect: Val_set [1,5,7], Arr1_set ["A1","A2","A3","C1","C2"] (an array adds its elements); make_set_if over the array rows with Val > 5 -> ["C2","A3"]; make_list(Arr1, 2) -> [["A1","A2","A3"],["A2","C1"]]: make_list keeps the arrays whole (its page shows no flattening) (source: https://learn.microsoft.com/kusto/query/make-set-aggregation-function "Set from array column", https://learn.microsoft.com/kusto/query/make-set-if-aggregation-function, https://learn.microsoft.com/kusto/query/make-list-aggregation-function)
datatable (Val: int, Arr1: dynamic)
[
    1, dynamic(['A1', 'A2', 'A3']), 
    5, dynamic(['A2', 'C1']),
    7, dynamic(['C2', 'A3']),
    5, dynamic(['C2', 'A1'])
] 
| summarize Val_set=make_set(Val), Arr1_set=make_set(Arr1), big_set=make_set_if(Arr1, Val > 5), lists=make_list(Arr1, 2)
