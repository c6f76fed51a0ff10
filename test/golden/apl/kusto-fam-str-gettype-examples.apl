// expect: string, long, bool, datetime, timespan, long, string, dictionary, array, real, null: the page says int for gettype(parse_json('1')); Axiom's int is long, and Quarry keeps dynamic integers long (docs/apl.md) (source: https://learn.microsoft.com/kusto/query/gettype-function, the table; the guid row is left out: Quarry has no guid type)
print a = gettype("a"), b = gettype(111), c = gettype(1==1), d = gettype(now()), e = gettype(1s),
      f = gettype(parse_json('1')), g = gettype(parse_json(' "abc" ')), h = gettype(parse_json(' {"abc":1} ')),
      i = gettype(parse_json(' [1, 2, 3] ')), j = gettype(123.45), k = gettype(parse_json(''))
