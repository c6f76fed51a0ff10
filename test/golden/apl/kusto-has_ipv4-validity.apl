// Kusto: https://learn.microsoft.com/kusto/query/has-ipv4-function (three examples) -- found: true; an octet over 255 is no address: false; an address glued to digits is not delimited: false
print a = has_ipv4('05:04:54 127.0.0.1 GET /favicon.ico 404', '127.0.0.1'),
      b = has_ipv4('05:04:54 127.0.0.256 GET /favicon.ico 404', '127.0.0.256'),
      c = has_ipv4('05:04:54127.0.0.1 GET /favicon.ico 404', '127.0.0.1')
