// expect: a=0 (empty), b=null (bag), c=null (string), d=3
print a = array_length(dynamic([])), b = array_length(dynamic({"a": 1})), c = array_length("abc"), d = array_length(dynamic([1, [2], null]))
