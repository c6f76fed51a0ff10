// expect: 88d9b at level 8; longitude 300, level 35 and a null level -> empty (null in Quarry) (source: https://learn.microsoft.com/kusto/query/geo-point-to-s2cell-function, the page's example)
print s2cell = geo_point_to_s2cell(-80.195829, 25.802215, 8), bad_point = geo_point_to_s2cell(300,1,8), bad_level = geo_point_to_s2cell(1,1,35), null_level = geo_point_to_s2cell(1,1,int(null))
