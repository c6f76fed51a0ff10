// expect: the page's three overlapping Harlem lines (rows) and two of them (columns) both unite to the LineString [-73.956838846206651, 40.805028914808844], [-73.95633727312088, 40.8057171711177], [-73.954891562461853, 40.80510200431312], [-73.955374360084534, 40.804413741624522] (compared to 12 decimals: Kusto's third latitude differs from its input in the 17th digit); an array with an invalid line -> null (source: https://learn.microsoft.com/kusto/query/geo-union-lines-array-function, the page's examples)
let rows = toscalar(datatable(lines:dynamic)
[
    dynamic({"type":"LineString","coordinates":[[-73.95683884620665,40.80502891480884],[-73.95633727312088,40.8057171711177],[-73.95489156246185,40.80510200431311]]}),
    dynamic({"type":"LineString","coordinates":[[-73.95633727312088,40.8057171711177],[-73.95489156246185,40.80510200431311],[-73.95537436008453,40.804413741624515]]}),
    dynamic({"type":"LineString","coordinates":[[-73.95633727312088,40.8057171711177],[-73.95489156246185,40.80510200431311]]})
]
| summarize lines_arr = make_list(lines)
| project lines_union = geo_union_lines_array(lines_arr));
let columns = toscalar(datatable(line1:dynamic, line2:dynamic)
[
    dynamic({"type":"LineString","coordinates":[[-73.95683884620665,40.80502891480884],[-73.95633727312088,40.8057171711177],[-73.95489156246185,40.80510200431311]]}), dynamic({"type":"LineString","coordinates":[[-73.95633727312088,40.8057171711177],[-73.95489156246185,40.80510200431311],[-73.95537436008453,40.804413741624515]]})
]
| project lines_arr = pack_array(line1, line2)
| project lines_union = geo_union_lines_array(lines_arr));
let invalid = toscalar(datatable(lines:dynamic)
[
    dynamic({"type":"LineString","coordinates":[[-73.95683884620665,40.80502891480884],[-73.95633727312088,40.8057171711177],[-73.95489156246185,40.80510200431311]]}),
    dynamic({"type":"LineString","coordinates":[[1, 1]]})
]
| summarize lines_arr = make_list(lines)
| project isnull(geo_union_lines_array(lines_arr)));
print rows_type = tostring(rows.type), columns_type = tostring(columns.type),
  rows_points = array_length(rows.coordinates),
  rows_rounded = pack_array(round(todouble(rows.coordinates[0][0]), 12), round(todouble(rows.coordinates[0][1]), 12), round(todouble(rows.coordinates[1][0]), 12), round(todouble(rows.coordinates[1][1]), 12), round(todouble(rows.coordinates[2][0]), 12), round(todouble(rows.coordinates[2][1]), 12), round(todouble(rows.coordinates[3][0]), 12), round(todouble(rows.coordinates[3][1]), 12)),
  same_as_columns = tostring(rows) == tostring(columns),
  invalid_union = invalid
