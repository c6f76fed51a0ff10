// expect: level-8 cells group A and B in 47b1d, C in 47ae3 (source: https://learn.microsoft.com/kusto/query/geo-point-to-s2cell-function, the page's example)
datatable(location_id:string, longitude:real, latitude:real)
[
  "A", 10.1234, 53,
  "B", 10.3579, 53,
  "C", 10.6842, 53,
]
| summarize count = count(), locations = make_list(location_id) by s2cell = geo_point_to_s2cell(longitude, latitude, 8)
| order by s2cell desc
