// expect: the page's join of tube stations to streets: with level 14 and radius 500 m, St. James' Park's cell is in the Buckingham Palace street's covering and London Bridge station's in London Bridge's (not in the other street's), and the distances the page prints follow: 451.692474409721 and 273.133133711648 m (compared to 6 decimals); an invalid line, level 31 or radius -1 -> null (source: https://learn.microsoft.com/kusto/query/geo-line-to-s2cells-function, the page's example)
let palace = dynamic({"type":"LineString","coordinates":[[-0.1399656708283601,51.50190802248855],[-0.14088438832752104,51.50012082761452]]});
let bridge = dynamic({"type":"LineString","coordinates":[[-0.087152,51.509596],[-0.088340,51.506110]]});
let p = geo_line_to_s2cells(palace, 14, 500);
let b = geo_line_to_s2cells(bridge, 14, 500);
print park_in_palace = set_has_element(p, geo_point_to_s2cell(-0.13451078568013486, 51.49919145858172, 14)),
  station_in_bridge = set_has_element(b, geo_point_to_s2cell(-0.08492752160134387, 51.504876316440914, 14)),
  station_not_in_palace = not(set_has_element(p, geo_point_to_s2cell(-0.08492752160134387, 51.504876316440914, 14))),
  park_distance = round(geo_distance_point_to_line(-0.13451078568013486, 51.49919145858172, palace), 6),
  station_distance = round(geo_distance_point_to_line(-0.08492752160134387, 51.504876316440914, bridge), 6),
  invalid_line = isnull(geo_line_to_s2cells(dynamic({"type":"LineString","coordinates":[[1,1]]}))),
  bad_level = isnull(geo_line_to_s2cells(palace, 31)),
  bad_radius = isnull(geo_line_to_s2cells(palace, 14, -1))
