// Kusto: https://learn.microsoft.com/kusto/query/ipv6-compare-function (first table) -- IPv4 compared as IPv6 with its prefix + 96, IPv6 prefixes, mixed IPv4/IPv6 (also ::a.b.c.d): 0 on every row
datatable(ip1_string:string, ip2_string:string)
[
 '192.168.1.1',    '192.168.1.1',
 '192.168.1.1/24', '192.168.1.255',
 '192.168.1.1',    '192.168.1.255/24',
 '192.168.1.1/30', '192.168.1.255/24',
 'fe80::85d:e82c:9446:7994', 'fe80::85d:e82c:9446:7994',
 'fe80::85d:e82c:9446:7994/120', 'fe80::85d:e82c:9446:7998',
 'fe80::85d:e82c:9446:7994', 'fe80::85d:e82c:9446:7998/120',
 'fe80::85d:e82c:9446:7994/120', 'fe80::85d:e82c:9446:7998/120',
 '192.168.1.1',      '::ffff:c0a8:0101',
 '192.168.1.1/24',   '::ffff:c0a8:01ff',
 '::ffff:c0a8:0101', '192.168.1.255/24',
 '::192.168.1.1/30', '192.168.1.255/24'
]
| extend result = ipv6_compare(ip1_string, ip2_string)
| project result
