// expect: non-numbers and nulls -> null; floor of -1.5 = -2; log(0) -> null -> [[1,2,null,null],[1,-2],[-1,0,1],[0,null]]
print a = series_abs(dynamic([-1, 2, null, "x"])), b = series_floor(dynamic([1.5, -1.5])), c = series_sign(dynamic([-3, 0, 4])), d = series_log(dynamic([1, 0]))
