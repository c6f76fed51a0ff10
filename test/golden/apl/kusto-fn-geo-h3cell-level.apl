// expect: 6 for 862a1072fffffff, 10 for a resolution-10 cell; "abc" -> null (source: https://learn.microsoft.com/kusto/query/geo-h3cell-level-function, the page's example)
print cell_res = geo_h3cell_level('862a1072fffffff'), res10 = geo_h3cell_level(geo_point_to_h3cell(1,1,10)), invalid_res = isnull(geo_h3cell_level('abc'))
