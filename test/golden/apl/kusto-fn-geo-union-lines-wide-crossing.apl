// expect: an equator line from lng -100 to 100 (vertices at -30 and 30) and a meridian line from lat -80 to 80, wider than one projection holds, cross at [0, 0]: a MultiLineString of the equator's two halves, then the meridian's two halves from [0, 0]; the arc from (0, 60) to (170, 60) and the arc over the pole from (85, 60) to (-95, 60) cross at lng 85, lat atan(tan 60° / cos 85°) = 87.119340913595° (the first arc's highest point; 12 decimals), four pieces (by construction: great circles on the sphere)
let lines_arr = pack_array(
    dynamic({"type":"LineString","coordinates":[[-100,0],[-30,0],[30,0],[100,0]]}),
    dynamic({"type":"LineString","coordinates":[[0,-80],[0,80]]}));
let polar = geo_union_lines_array(pack_array(
    dynamic({"type":"LineString","coordinates":[[0,60],[170,60]]}),
    dynamic({"type":"LineString","coordinates":[[85,60],[-95,60]]})));
print crossing = tostring(geo_union_lines_array(lines_arr)),
  polar_type = tostring(polar.type), polar_lines = array_length(polar.coordinates),
  polar_node = pack_array(round(todouble(polar.coordinates[1][0][0]), 12), round(todouble(polar.coordinates[1][0][1]), 12))
