// expect: the page's 8-vertex line simplified with tolerance 10 m -> {"type": "LineString", "coordinates": [[-73.97033169865608, 40.789063020152824], [-73.97079303860664, 40.788434498977836]]}; a one-position line -> null; tolerance -1 -> null; a 15.7 km line with tolerance 100 km disappears -> null (source: https://learn.microsoft.com/kusto/query/geo-line-simplify-function, the page's examples)
let line = dynamic({"type":"LineString","coordinates":[[-73.97033169865608,40.789063020152824],[-73.97039607167244,40.78897975920816],[-73.9704617857933,40.78888837512432],[-73.97052884101868,40.7887949601531],[-73.9706052839756,40.788698498903564],[-73.97065222263336,40.78862640672032],[-73.97072866559029,40.78852791445617],[-73.97079303860664,40.788434498977836]]});
print simplified = geo_line_simplify(line, 10),
  one_position = isnull(geo_line_simplify(dynamic({"type":"LineString","coordinates":[[1, 1]]}))),
  bad_tolerance = isnull(geo_line_simplify(dynamic({"type":"LineString","coordinates":[[1, 1],[2,2]]}), -1)),
  disappears = isnull(geo_line_simplify(dynamic({"type":"LineString","coordinates":[[1.1, 1.1],[1.2,1.2]]}), 100000))
