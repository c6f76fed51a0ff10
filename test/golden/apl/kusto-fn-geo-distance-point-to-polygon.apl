// expect: a point to Central Park -> 259.940756070596 m; a point inside -> 0 (the page: "If polygon contains point, the distance will be 0"); invalid coordinate (500) -> null; invalid polygon -> null (source: https://learn.microsoft.com/kusto/query/geo-distance-point-to-polygon-function, the page's examples; compared to 6 decimals)
let central_park = dynamic({"type":"Polygon","coordinates":[[[-73.9495,40.7969],[-73.95807266235352,40.80068603561921],[-73.98201942443848,40.76825672305777],[-73.97317886352539,40.76455136505513],[-73.9495,40.7969]]]});
print print_0 = round(geo_distance_point_to_polygon(-73.9839, 40.7705, central_park), 6),
  inside = geo_distance_point_to_polygon(-73.97, 40.78, central_park),
  bad_coordinate = geo_distance_point_to_polygon(500,1,dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,1],[0,0]]]})),
  bad_polygon = geo_distance_point_to_polygon(1,1,dynamic({"type": "Polygon","coordinates": [[[0,0],[10,10],[10,10],[0,0]]]}))
