// Kusto: https://learn.microsoft.com/kusto/query/array-iff-function (examples) -- [1,5,3]; numeric conditions (non-zero is true) with scalar branches: [yes, no, yes]; a short branch array gives null: [1,2,null]
print res1 = array_iff(dynamic([true,false,true]), dynamic([1,2,3]), dynamic([4,5,6])),
      res2 = array_iff(dynamic([1,0,50]), "yes", "no"),
      res3 = array_iff(dynamic([true,true,true]), dynamic([1,2]), dynamic([3,4]))
