// expect: regex parse: captures become lazy groups between regex constants -> sep " " rest "ok" and sep "_" rest "ok"
ds | parse kind=regex msg with "user" sep "login " rest "$" | where isnotnull(sep) | project sep, rest | sort by sep asc
