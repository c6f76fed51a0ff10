// expect: true (source: https://learn.microsoft.com/kusto/query/ipv4-is-in-any-range-function)
print Result=ipv4_is_in_any_range('192.168.1.6', '192.168.1.1/24', '10.0.0.1/8', '127.1.0.1/16')
