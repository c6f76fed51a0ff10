// Kusto: https://learn.microsoft.com/kusto/query/ipv4-netmask-suffix-function (example) -- 32 without a suffix, else the suffix: 32, 24, 16
datatable(ip_string:string)
[
 '10.1.2.3',
 '192.168.1.1/24',
 '127.0.0.1/16'
]
| extend cidr_suffix = ipv4_netmask_suffix(ip_string)
