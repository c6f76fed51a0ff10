// expect: 1|["A1","A2"]|["B1","B2","B3"]|["A1_B1","A2_B2","_B3"], 5|["C1","C2"]|["D1"]|["C1_D1","C2_"] (columns Val, Arr1, Arr2, Out) (source: https://learn.microsoft.com/kusto/query/mv-apply-operator "Using multiple columns to join element of two arrays")
datatable (Val: int, Arr1: dynamic, Arr2: dynamic)
[
    1, dynamic(['A1', 'A2']), dynamic(['B1', 'B2', 'B3']),
    5, dynamic(['C1', 'C2']), dynamic(['D1'])
]
| mv-apply T1=Arr1, T2=Arr2 on (
    extend Out = strcat(T1, "_", T2)
    | summarize Out= make_list(Out)
  )
