// expect: per element a[i] when the condition is true, b[i] when false, null for a null condition; scalars broadcast -> [[1,20,null,4],["y","n"]]
print a = array_iff(dynamic([true, false, null, true]), dynamic([1, 2, 3, 4]), dynamic([10, 20, 30])), b = array_iff(dynamic([true, false]), "y", "n")
