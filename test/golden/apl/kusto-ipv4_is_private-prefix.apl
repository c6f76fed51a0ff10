// Kusto: https://learn.microsoft.com/kusto/query/ipv4-is-private-function (page examples) -- 10.1.2.3 true, 192.168.1.1/24 true, 127.0.0.1 false, 10.1.2.3/24 true, 202.1.2.3 false
datatable(ip_string:string)
[
 '10.1.2.3',
 '192.168.1.1/24',
 '127.0.0.1',
 '10.1.2.3/24',
 '202.1.2.3'
]
| extend result = ipv4_is_private(ip_string)
