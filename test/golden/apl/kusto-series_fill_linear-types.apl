// expect: an array is long when every number in it is written as an integer (`-3`, `long(4)` too): [0,null,-3] fills -1.5 truncated toward zero ([0,-1,-3]) and [long(1), null, long(4)] fills 2.5 truncated ([1,2,4]); one real element makes it real: [1, null, 4.0] and [real(1), null, 4] fill 2.5; a long series stays long through series_fill_const with a null constant (-1 marks the missing element), so the fill_linear after it still truncates ([1,2,4]) (series_fill_linear's page: "If series contains only int or long elements, then the linear interpolation returns rounded interpolated values" and "preserves the original type of the array elements"; its example shows the values truncated) (source: https://learn.microsoft.com/kusto/query/series-fill-linear-function)
print
    negative = series_fill_linear(dynamic([0, null, -3])),
    typed = series_fill_linear(dynamic([long(1), null, long(4)])),
    mixed = series_fill_linear(dynamic([1, null, 4.0])),
    real_typed = series_fill_linear(dynamic([real(1), null, 4])),
    after_const = series_fill_linear(series_fill_const(dynamic([1, -1, 4]), long(null), -1))
