// Kusto: https://learn.microsoft.com/kusto/query/array-sort-asc-function (example 4) and array-sort-desc-function (example 4) -- nulls last by default, first with nulls_last=false
print a = array_sort_asc(dynamic([null,"blue","yellow","green",null])),
      b = array_sort_asc(dynamic([null,"blue","yellow","green",null]), false),
      c = array_sort_desc(dynamic([null,"blue","yellow","green",null])),
      d = array_sort_desc(dynamic([null,"blue","yellow","green",null]), false)
