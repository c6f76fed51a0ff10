// expect: desc (default) takes 3, 2 (nulls last); asc takes null, 1 (nulls first); desc nulls first takes null, 3 (source: https://learn.microsoft.com/kusto/query/top-operator "Default desc"; "Default for asc is nulls first. Default for desc is nulls last.")
let T = datatable(x:long)[2, long(null), 1, 3];
union withsource=q
  (T | top 2 by x | as desc_default),
  (T | top 2 by x asc | as asc_default),
  (T | top 2 by x desc nulls first | as desc_nulls_first)
| summarize xs = make_list_with_nulls(x) by q
| sort by q asc
