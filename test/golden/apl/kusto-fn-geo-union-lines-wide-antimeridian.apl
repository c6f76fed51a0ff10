// expect: lines from [170, 10] to [-170, -10] and from [170, -10] to [-170, 10] cross on the antimeridian at [180, 0]: four pieces from and to it; collinear lines [170, 0]-[-170, 0] and [180, 0]-[-160, 0] overlap across it and unite to one LineString of their four vertices; lines ending at [180, 0] and starting at [-180, 0] join there (the first's coordinates kept) (by construction: great circles on the sphere)
print crossing = tostring(geo_union_lines_array(pack_array(
    dynamic({"type":"LineString","coordinates":[[170,10],[-170,-10]]}),
    dynamic({"type":"LineString","coordinates":[[170,-10],[-170,10]]})))),
  overlap = tostring(geo_union_lines_array(pack_array(
    dynamic({"type":"LineString","coordinates":[[170,0],[-170,0]]}),
    dynamic({"type":"LineString","coordinates":[[180,0],[-160,0]]})))),
  joined = tostring(geo_union_lines_array(pack_array(
    dynamic({"type":"LineString","coordinates":[[170,0],[180,0]]}),
    dynamic({"type":"LineString","coordinates":[[-180,0],[-170,0]]}))))
