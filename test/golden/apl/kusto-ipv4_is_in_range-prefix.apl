// Kusto: https://learn.microsoft.com/kusto/query/ipv4-is-in-range-function (example) -- equal IPs true; 192.168.1.255/24 is the range 192.168.1.0/24: true
datatable(ip_address:string, ip_range:string)
[
 '192.168.1.1',    '192.168.1.1',
 '192.168.1.1',    '192.168.1.255/24'
]
| extend result = ipv4_is_in_range(ip_address, ip_range)
