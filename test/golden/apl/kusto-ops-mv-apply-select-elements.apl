// expect: 1|["A1","A2","A3"]|[10,30,7]|["A2","A1"]|[30,10], 7|["B1","B2","B5"]|[15,11,50]|["B5","B1"]|[50,15], 3|["C1","C2","C3","C4"]|[6,40,20,8]|["C2","C3"]|[40,20] (columns Val, Arr1, Arr2, NewArr1, NewArr2) (source: https://learn.microsoft.com/kusto/query/mv-apply-operator "Select elements in arrays")
datatable (Val:int, Arr1:dynamic, Arr2:dynamic)
[ 1, dynamic(['A1', 'A2', 'A3']),       dynamic([10, 30, 7]),
  7, dynamic(['B1', 'B2', 'B5']),       dynamic([15, 11, 50]),
  3, dynamic(['C1', 'C2', 'C3', 'C4']), dynamic([6, 40, 20, 8])
]
| mv-apply NewArr1=Arr1, NewArr2=Arr2 to typeof(long) on (
 top 2 by NewArr2
 | summarize NewArr1=make_list(NewArr1), NewArr2=make_list(NewArr2)
)
