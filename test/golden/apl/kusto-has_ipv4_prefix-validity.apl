// Kusto: https://learn.microsoft.com/kusto/query/has-ipv4-prefix-function (four examples) -- true; '127.0' is not a valid prefix (must end with a dot): false; invalid address: false; glued digits: false
print a = has_ipv4_prefix('05:04:54 127.0.0.1 GET /favicon.ico 404', '127.0.'),
      b = has_ipv4_prefix('05:04:54 127.0.0.1 GET /favicon.ico 404', '127.0'),
      c = has_ipv4_prefix('05:04:54 127.0.0.256 GET /favicon.ico 404', '127.0.'),
      d = has_ipv4_prefix('05:04:54127.0.0.1 GET /favicon.ico 404', '127.0.')
