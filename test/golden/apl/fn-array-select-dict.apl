// expect: the first dictionary with k == "y" (non-dictionaries ignored); no match -> null -> [{"k":"y","n":2},null]
print a = array_select_dict(dynamic([1, {"k":"x","n":1}, {"k":"y","n":2}, {"k":"y","n":3}]), "k", "y"), b = array_select_dict(dynamic([{"k":1}]), "k", 2)
