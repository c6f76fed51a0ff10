// expect: isempty "" true, "x" false, parse_json("") true, parse_json("[]") false, parse_json("{}") false; isnull false, false, true, false, false; isnotnull of parse_json("") false; parsejson is Kusto's deprecated alias (source: https://learn.microsoft.com/kusto/query/isempty-function, https://learn.microsoft.com/kusto/query/isnull-function, the tables)
print e1 = isempty(""), e2 = isempty("x"), e3 = isempty(parsejson("")), e4 = isempty(parsejson("[]")), e5 = isempty(parsejson("{}")),
      n1 = isnull(""), n2 = isnull("x"), n3 = isnull(parse_json("")), n4 = isnull(parse_json("[]")), n5 = isnull(parse_json("{}")),
      nn = isnotnull(parse_json(""))
