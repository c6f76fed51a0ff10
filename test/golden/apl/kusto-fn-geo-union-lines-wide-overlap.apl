// expect: equator lines [-120, 0]-[0, 0]-[60, 0] and [-60, 0]-[100, 0] share the stretch from -60 to 60 once: one LineString [-120, 0], [-60, 0], [0, 0], [60, 0], [100, 0]; a MultiLineString of a wide line and its reverse unites to the line; a closed triangle [0, 0], [120, 0], [60, 60], [0, 0] comes back as it is; an edge between antipodal points -> null (by construction: great circles on the sphere)
print overlap = tostring(geo_union_lines_array(pack_array(
    dynamic({"type":"LineString","coordinates":[[-120,0],[0,0],[60,0]]}),
    dynamic({"type":"LineString","coordinates":[[-60,0],[100,0]]})))),
  reversed = tostring(geo_union_lines_array(pack_array(
    dynamic({"type":"MultiLineString","coordinates":[[[-150,10],[-40,30],[60,-20],[170,5]],[[170,5],[60,-20],[-40,30],[-150,10]]]})))),
  loop = tostring(geo_union_lines_array(pack_array(
    dynamic({"type":"LineString","coordinates":[[0,0],[120,0],[60,60],[0,0]]})))),
  antipodal = isnull(geo_union_lines_array(pack_array(
    dynamic({"type":"LineString","coordinates":[[0,0],[180,0]]}))))
