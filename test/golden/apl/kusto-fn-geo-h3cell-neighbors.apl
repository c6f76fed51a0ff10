// expect: the six neighbors of 862a1072fffffff in the page's order; "abc" -> null (source: https://learn.microsoft.com/kusto/query/geo-h3cell-neighbors-function, the page's example)
print neighbors = geo_h3cell_neighbors('862a1072fffffff'), invalid = isnull(geo_h3cell_neighbors('abc'))
