// Kusto: https://learn.microsoft.com/kusto/query/ipv4-compare-function ("IPv4 comparison equality cases") -- the combined prefix of both strings is used: 0 on every row
datatable(ip1_string:string, ip2_string:string)
[
 '192.168.1.0',    '192.168.1.0',
 '192.168.1.1/24', '192.168.1.255',
 '192.168.1.1',    '192.168.1.255/24',
 '192.168.1.1/30', '192.168.1.255/24'
]
| extend result = ipv4_compare(ip1_string, ip2_string)
