// expect: longest length, missing element null; scalars broadcast; x/0 -> null -> [[11,22,null],[3,6],[0.5,null],[4,3],[4,9]]
print a = series_add(dynamic([1, 2, 3]), dynamic([10, 20])), b = series_multiply(dynamic([1, 2]), 3), c = series_divide(dynamic([1, 4]), dynamic([2, 0])), d = series_subtract(5, dynamic([1, 2])), e = series_pow(dynamic([2, 3]), 2)
