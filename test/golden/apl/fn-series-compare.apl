// expect: element-wise booleans, null element -> null -> [[false,true,null],[true,false],[true,true,false]]
print a = series_greater(dynamic([1, 5, null]), 2), b = series_equals(dynamic([1, 2]), dynamic([1, 3])), c = series_less_equals(dynamic([1, 2, 3]), dynamic([2, 2, 2]))
