// expect: a line across a triangle -> true; the page's two null examples (written with geo_intersects_2lines: a one-point line, a polygon without rings) -> null (source: https://learn.microsoft.com/kusto/query/geo-intersects-line-with-polygon-function, the page's examples)
let lineString = dynamic({"type":"LineString","coordinates":[[-73.985195,40.788275],[-73.974552,40.779761]]});
let polygon = dynamic({"type":"Polygon","coordinates":[[[-73.9712905883789,40.78580561168767],[-73.98004531860352,40.775276834803655],[-73.97000312805176,40.77852663535664],[-73.9712905883789,40.78580561168767]]]});
let badLine = dynamic({"type":"LineString","coordinates":[[-73.985195,40.788275]]});
let polygon2 = dynamic({"type":"Polygon","coordinates":[[[-73.95768642425537,40.80065354924362],[-73.9582872390747,40.80089719667298],[-73.95869493484497,40.80050736035672],[-73.9580512046814,40.80019873831593],[-73.95768642425537,40.80065354924362]]]});
let line3 = dynamic({"type":"LineString","coordinates":[[-73.97159099578857,40.794513338780895],[-73.96738529205322,40.792758888618756],[-73.96978855133057,40.789769718601505]]});
let noRings = dynamic({"type":"Polygon","coordinates":[]});
print intersects = geo_intersects_line_with_polygon(lineString, polygon), bad_line = isnull(geo_intersects_2lines(badLine, polygon2)), bad_polygon = isnull(geo_intersects_2lines(line3, noRings)), bad_polygon_here = isnull(geo_intersects_line_with_polygon(line3, noRings))
