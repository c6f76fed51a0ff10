// expect: as the page's with-others example over StormEvents, on rows whose sums are known: TX 25 (Pub 21: AM 20 + others 1; Law 4: PE 4), KS 22 (Law 13: FT 10 + others 3; Pub 7: BU 7; its third source only as null|null|All Other End Locations|2), All Other States 6 with null source and All Other End Locations 6 (source: https://learn.microsoft.com/kusto/query/top-nested-operator "with others" example and its output rows)
datatable(State: string, Source: string, End: string, Lat: long)
[
  "KS", "Law", "FT", 10, "KS", "Law", "AB", 3, "KS", "Pub", "BU", 7, "KS", "Spot", "SH", 2,
  "TX", "Pub", "AM", 20, "TX", "Pub", "CL", 1, "TX", "Law", "PE", 4,
  "OH", "Pub", "CO", 5, "IA", "Law", "DM", 1
]
| top-nested 2 of State with others = "All Other States" by sum(Lat),
  top-nested 2 of Source by sum(Lat),
  top-nested 1 of End with others = "All Other End Locations" by sum(Lat)
