// expect: one row per element; [] and null/missing arrays give one row with a null element (Kusto, engine choice), and tostring(null) is "" -> 9 rows by _time asc: a, b, "", "", c, "", a, "", ""
ds | mv-expand tags | project _time, t = tostring(tags) | sort by _time asc
