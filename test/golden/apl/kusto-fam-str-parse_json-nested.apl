// expect: d = {"a":123, "b":"{\"c\":456}"} as text; parse_json(tostring(parse_json(d).b)).c = 456 (source: https://learn.microsoft.com/kusto/query/parse-json-function, "Nested JSON parsing", both queries in one print)
let d='{"a":123, "b":"{\\"c\\":456}"}';
print d, d_b_c=parse_json(tostring(parse_json(d).b)).c
