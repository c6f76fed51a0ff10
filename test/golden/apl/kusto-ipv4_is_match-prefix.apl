// Kusto: https://learn.microsoft.com/kusto/query/ipv4-is-match-function (simple example and both equality tables) -- true everywhere
datatable(ip1_string:string, ip2_string:string, prefix:long)
[
 '192.168.1.0',    '192.168.1.0',       32,
 '192.168.1.1/24', '192.168.1.255',     32,
 '192.168.1.1',    '192.168.1.255/24',  32,
 '192.168.1.1/30', '192.168.1.255/24',  32,
 '192.168.1.1',    '192.168.1.0',       31,
 '192.168.1.1/24', '192.168.1.255',     31,
 '192.168.1.1',    '192.168.1.255',     24
]
| extend no_arg = ipv4_is_match(ip1_string, ip2_string), with_arg = ipv4_is_match(ip1_string, ip2_string, prefix)
| project no_arg, with_arg
