// Kusto: https://learn.microsoft.com/kusto/query/format-ipv4-function and format-ipv4-mask-function (same example) -- the smaller of the text's prefix and the argument applies; a prefix outside 0..32 gives an empty string
datatable(address:string, mask:long)
[
 '192.168.1.1', 24,
 '192.168.1.1', 32,
 '192.168.1.1/24', 32,
 '192.168.1.1/24', long(-1)
]
| extend result = format_ipv4(address, mask),
         result_mask = format_ipv4_mask(address, mask)
