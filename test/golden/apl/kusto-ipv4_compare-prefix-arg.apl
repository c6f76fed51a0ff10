// Kusto: https://learn.microsoft.com/kusto/query/ipv4-compare-function (prefix inside the strings and as argument) -- the smaller prefix wins: 0 on every row
datatable(ip1_string:string, ip2_string:string, prefix:long)
[
 '192.168.1.1',    '192.168.1.0',   31,
 '192.168.1.1/24', '192.168.1.255', 31,
 '192.168.1.1',    '192.168.1.255', 24
]
| extend result = ipv4_compare(ip1_string, ip2_string, prefix)
