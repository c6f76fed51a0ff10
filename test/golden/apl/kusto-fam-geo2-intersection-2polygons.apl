// expect: the page's first example is a Polygon of 5 positions whose area equals that of the page's printed result to 0.01 m², containing the page's new vertex [-73.962105776437156, 40.774591360999679]; two polygons touching in one vertex -> {"type": "Point","coordinates": [2,45]}; a polygon against a MultiPolygon it touches in that vertex and overlaps elsewhere -> a GeometryCollection of the Point [2,45] and a Polygon of 5 positions whose area equals that of the page's printed polygon to 0.01 m²; two polygons that do not meet -> {"type": "GeometryCollection", "geometries": []}; an invalid polygon -> null (source: https://learn.microsoft.com/kusto/query/geo-intersection-2polygons-function, the page's examples)
let polygon1 = dynamic({"type":"Polygon","coordinates":[[[-73.9630937576294,40.77498840732385],[-73.963565826416,40.774383111780914],[-73.96205306053162,40.773745311181585],[-73.96160781383514,40.7743912365898],[-73.9630937576294,40.77498840732385]]]});
let polygon2 = dynamic({"type":"Polygon","coordinates":[[[-73.96213352680206,40.775045280447145],[-73.9631313085556,40.774578106920345],[-73.96207988262177,40.77416780398293],[-73.96213352680206,40.775045280447145]]]});
let page = dynamic({"type": "Polygon",  "coordinates": [[[-73.962105776437156,40.774591360999679],[-73.962642403166868,40.774807020251778],[-73.9631313085556,40.774578106920352],[-73.962079882621765,40.774167803982927],[-73.962105776437156,40.774591360999679]]]});
let i = geo_intersection_2polygons(polygon1, polygon2);
let c = geo_intersection_2polygons(dynamic({"type":"Polygon","coordinates":[[[2,45],[0,45],[1,44],[2,45]]]}), dynamic({"type":"MultiPolygon","coordinates":[[[[3,44],[2,45],[2,43],[3,44]]],[[[1.192,45.265],[1.005,44.943],[1.356,44.937],[1.192,45.265]]]]}));
let page_collection_polygon = dynamic({ "type": "Polygon", "coordinates": [[[1.3227075526410679,45.003909145068739],[1.0404565374899824,45.004356403066552],[1.005,44.943],[1.356,44.937],[1.3227075526410679,45.003909145068739]]]});
print type = tostring(i.type), positions = array_length(i.coordinates[0]),
  area_diff_below_001m2 = abs(geo_polygon_area(i) - geo_polygon_area(page)) < 0.01,
  area_positive = geo_polygon_area(i) > 1000,
  touching = geo_intersection_2polygons(dynamic({"type":"Polygon","coordinates":[[[2,45],[0,45],[1,44],[2,45]]]}), dynamic({"type":"Polygon","coordinates":[[[3,44],[2,45],[2,43],[3,44]]]})),
  collection_types = strcat(tostring(c.geometries[0].type), ",", tostring(c.geometries[1].type)),
  collection_point = c.geometries[0],
  collection_positions = array_length(c.geometries[1].coordinates[0]),
  collection_area_diff_below_001m2 = abs(geo_polygon_area(c.geometries[1]) - geo_polygon_area(page_collection_polygon)) < 0.01,
  disjoint = geo_intersection_2polygons(dynamic({"type":"Polygon","coordinates":[[[2,45],[0,45],[1,44],[2,45]]]}), dynamic({"type":"Polygon","coordinates":[[[3,44],[3,45],[2,43],[3,44]]]})),
  invalid = isnull(geo_intersection_2polygons(dynamic({"type":"Polygon"}), polygon1))
