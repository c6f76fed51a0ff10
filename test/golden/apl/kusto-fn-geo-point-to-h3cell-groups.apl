// expect: resolution-5 cells group A and B in 852a100bfffffff, C in 852a1073fffffff (source: https://learn.microsoft.com/kusto/query/geo-point-to-h3cell-function, the page's example)
datatable(location_id:string, longitude:real, latitude:real)
[
    "A", -73.956683, 40.807907,
    "B", -73.916869, 40.818314,
    "C", -73.989148, 40.743273,
]
| summarize count = count(), locations = make_list(location_id) by h3cell = geo_point_to_h3cell(longitude, latitude, 5)
| order by h3cell asc
