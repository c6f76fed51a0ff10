// Kusto: https://learn.microsoft.com/kusto/query/format-bytes-function (example) -- 564 Bytes, 10.1 KB, 19 MB, 19.08 MB, 19541 KB
print
v1 = format_bytes(564),
v2 = format_bytes(10332, 1),
v3 = format_bytes(20010332),
v4 = format_bytes(20010332, 2),
v5 = format_bytes(20010332, 0, "KB")
