// Kusto: https://learn.microsoft.com/kusto/query/has-any-ipv4-prefix-function (four examples) -- true; "127.0" is an invalid prefix: false; invalid address: false; glued digits: false
print a = has_any_ipv4_prefix('05:04:54 127.0.0.1 GET /favicon.ico 404', '127.0.', '192.168.'),
      b = has_any_ipv4_prefix('05:04:54 127.0.0.1 GET /favicon.ico 404', dynamic(["127.0", "192.168."])),
      c = has_any_ipv4_prefix('05:04:54 127.0.0.256 GET /favicon.ico 404', '127.0.', '192.168.'),
      d = has_any_ipv4_prefix('05:04:54127.0.0.1 GET /favicon.ico 404', '127.0.', '192.')
