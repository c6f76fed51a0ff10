// expect: two crossing Manhattan lines -> true; a one-point line -> null (source: https://learn.microsoft.com/kusto/query/geo-intersects-2lines-function, the page's examples)
let lineString1 = dynamic({"type":"LineString","coordinates":[[-73.978929,40.785155],[-73.980903,40.782621]]});
let lineString2 = dynamic({"type":"LineString","coordinates":[[-73.985195,40.788275],[-73.974552,40.779761]]});
let bad = dynamic({"type":"LineString","coordinates":[[-73.985195,40.788275]]});
print intersects = geo_intersects_2lines(lineString1, lineString2), invalid = isnull(geo_intersects_2lines(lineString1, bad))
