// expect: true (source: https://learn.microsoft.com/kusto/query/ipv4-is-in-any-range-function)
print Result=ipv4_is_in_any_range("127.0.0.1", dynamic(["127.0.0.1", "192.168.1.1"]))
