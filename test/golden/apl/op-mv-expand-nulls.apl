// expect: one row per element; a null/missing array gives one row with a null element and [] gives none (Kusto's mv-expand page, "Returns"), and tostring(null) is "" -> 8 rows by _time asc: a, b, "", c, "", a, "", ""
ds | mv-expand tags | project _time, t = tostring(tags) | sort by _time asc
