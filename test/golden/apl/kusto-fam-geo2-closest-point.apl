// expect: the point of the Las Vegas road nearest North Las Vegas Airport is the road's vertex {"type": "Point", "coordinates": [-115.192612, 36.176736]}; the point of Central Park nearest [-73.9839, 40.7705] is [-73.981205580153926, 40.769359452843211] (compared to 10 decimals, about 10 µm; the last digits differ from S2's arithmetic); a point inside the park is its own nearest point; an invalid LineString, coordinate (300 or 500) or polygon -> null (source: https://learn.microsoft.com/kusto/query/geo-closest-point-on-line-function and https://learn.microsoft.com/kusto/query/geo-closest-point-on-polygon-function, the pages' examples)
let central_park = dynamic({"type":"Polygon","coordinates":[[[-73.9495,40.7969],[-73.95807266235352,40.80068603561921],[-73.98201942443848,40.76825672305777],[-73.97317886352539,40.76455136505513],[-73.9495,40.7969]]]});
let p = geo_closest_point_on_polygon(-73.9839, 40.7705, central_park);
print point_on_line = geo_closest_point_on_line(-115.199625, 36.210419, dynamic({ "type":"LineString","coordinates":[[-115.115385,36.229195],[-115.136995,36.200366],[-115.140252,36.192470],[-115.143558,36.188523],[-115.144076,36.181954],[-115.154662,36.174483],[-115.166431,36.176388],[-115.183289,36.175007],[-115.192612,36.176736],[-115.202485,36.173439],[-115.225355,36.174365]]})),
  polygon_lng = round(todouble(p.coordinates[0]), 10), polygon_lat = round(todouble(p.coordinates[1]), 10),
  inside = geo_closest_point_on_polygon(-73.97, 40.78, central_park),
  bad_line = isnull(geo_closest_point_on_line(1,1, dynamic({ "type":"LineString"}))),
  bad_line_coordinate = isnull(geo_closest_point_on_line(300, 3, dynamic({ "type":"LineString","coordinates":[[1,1],[2,2]]}))),
  bad_polygon_coordinate = isnull(geo_closest_point_on_polygon(500,1,dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,1],[0,0]]]}))),
  bad_polygon = isnull(geo_closest_point_on_polygon(1,1,dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,10],[0,0]]]})))
