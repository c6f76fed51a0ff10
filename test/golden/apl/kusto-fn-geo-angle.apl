// expect: 2.94493843406882 rad = 168.732543198009° (14 and 12 decimals); p1 = p2 -> null (source: https://learn.microsoft.com/kusto/query/geo-angle-function, the page's example)
print angle_in_radians = round(geo_angle(0, 10, 0,5, 3,-10), 14), angle_in_degrees = round(degrees(geo_angle(0, 10, 0,5, 3,-10)), 12), is_null = isnull(geo_angle(0, 10, 0, 10, 3, -10))
