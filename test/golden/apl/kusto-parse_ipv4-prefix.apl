// Kusto: https://learn.microsoft.com/kusto/query/parse-ipv4-function (example) -- the IP-prefix is applied: 3232235777, 3232235776, 4294967294
datatable(ip_string: string)
[
    '192.168.1.1', '192.168.1.1/24', '255.255.255.255/31'
]
| extend ip_long = parse_ipv4(ip_string)
