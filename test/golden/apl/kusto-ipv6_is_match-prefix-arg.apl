// Kusto: https://learn.microsoft.com/kusto/query/ipv6-is-match-function (second table; same rows on ipv6-compare-function give 0) -- the smallest of both prefixes and the argument applies: true on every row
datatable(ip1_string:string, ip2_string:string, prefix:long)
[
 '192.168.1.1',    '192.168.1.0',   31,
 '192.168.1.1/24', '192.168.1.255', 31,
 '192.168.1.1',    '192.168.1.255', 24,
 'fe80::85d:e82c:9446:7994', 'fe80::85d:e82c:9446:7995',     127,
 'fe80::85d:e82c:9446:7994/127', 'fe80::85d:e82c:9446:7998', 120,
 'fe80::85d:e82c:9446:7994/120', 'fe80::85d:e82c:9446:7998', 127,
 '192.168.1.1/24',   '::ffff:c0a8:01ff', 127,
 '::ffff:c0a8:0101', '192.168.1.255',    120,
 '::192.168.1.1/30', '192.168.1.255/24', 127
]
| extend result = ipv6_is_match(ip1_string, ip2_string, prefix), cmp = ipv6_compare(ip1_string, ip2_string, prefix)
| project result, cmp
