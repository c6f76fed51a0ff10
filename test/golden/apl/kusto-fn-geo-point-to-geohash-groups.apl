// expect: default accuracy 5 groups A and B in c23n8, C in c23n9 (source: https://learn.microsoft.com/kusto/query/geo-point-to-geohash-function, the page's example)
datatable(location_id:string, longitude:real, latitude:real)
[
  "A", double(-122.303404), 47.570482,
  "B", double(-122.304745), 47.567052,
  "C", double(-122.278156), 47.566936,
]
| summarize count = count(), locations = make_list(location_id) by geohash = geo_point_to_geohash(longitude, latitude)
| order by geohash asc
