// expect: a short Manhattan edge -> unchanged; the ~130 km edge [50,50]-[51,51] -> eight edges, the exact text {"type":"LineString","coordinates":[[50,50],[50.125,50.125],...,[51,51]]}; longitude 300 -> null; tolerance 0 -> null (source: https://learn.microsoft.com/kusto/query/geo-line-densify-function, the page's examples; the first is compared as a value, the page's text has spaces and 40.796860)
print densified_line = geo_line_densify(dynamic({"type":"LineString","coordinates":[[-73.949247, 40.796860],[-73.973017, 40.764323]]})),
  long_edge = tostring(geo_line_densify(dynamic({"type":"LineString","coordinates":[[50, 50], [51, 51]]}))),
  bad_coordinate = geo_line_densify(dynamic({"type":"LineString","coordinates":[[300,1],[1,1]]})),
  bad_tolerance = geo_line_densify(dynamic({"type":"LineString","coordinates":[[1,1],[2,2]]}), 0)
