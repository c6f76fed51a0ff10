// Kusto: https://learn.microsoft.com/kusto/query/has-any-ipv4-function (three examples) -- true; invalid address: false; improperly delimited: false
print a = has_any_ipv4('05:04:54 127.0.0.1 GET /favicon.ico 404', '127.0.0.1', '127.0.0.2'),
      b = has_any_ipv4('05:04:54 127.0.0.256 GET /favicon.ico 404', dynamic(["127.0.0.256", "192.168.1.1"])),
      c = has_any_ipv4('05:04:54127.0.0.1 GET /favicon.ico 404', '127.0.0.1', '192.168.1.1')
