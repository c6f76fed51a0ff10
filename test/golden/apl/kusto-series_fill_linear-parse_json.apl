// expect: parse_json and todynamic keep the type of each number as written, like a dynamic literal: [1, null, 4] holds longs, so series_fill_linear truncates what it interpolates (2.5 -> 2, 15.5 -> 15); one real element ([1, null, 4.0], [1e0, null, 4]) makes the array real (2.5); a nested array is judged on its own elements, whichever key order JavaScript gives the object ("b" long: [0,-1,-3]; "1" real: [1.5,1.75,2]); with a duplicated key the last one wins, as it does for the value ([1,2,4]) (sources: https://learn.microsoft.com/kusto/query/gettype-function, whose table types parse_json('1') int and a JSON real real; https://learn.microsoft.com/kusto/query/series-fill-linear-function: "If series contains only int or long elements, then the linear interpolation returns rounded interpolated values", its example shows them truncated)
print
    ints = series_fill_linear(parse_json('[1, null, 4]')),
    dyn = series_fill_linear(todynamic('[10, null, 21]')),
    one_real = series_fill_linear(parse_json('[1, null, 4.0]')),
    exponent = series_fill_linear(parse_json('[1e0, null, 4]')),
    nested_long = series_fill_linear(parse_json('{"b": [0, null, -3], "1": [1.5, null, 2]}').b),
    nested_real = series_fill_linear(parse_json('{"b": [0, null, -3], "1": [1.5, null, 2]}')['1']),
    duplicate = series_fill_linear(parse_json('{"a": [1.5, null, 2], "a": [1, null, 4]}').a)
