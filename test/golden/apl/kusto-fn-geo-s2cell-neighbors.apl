// expect: the eight neighbors of 89c259 (sorted here: Quarry lists them in S2's own order, the page in another); "a" -> null (source: https://learn.microsoft.com/kusto/query/geo-s2cell-neighbors-function, the page's example)
print neighbors = array_sort_asc(geo_s2cell_neighbors('89c259')), invalid = isnull(geo_s2cell_neighbors('a'))
