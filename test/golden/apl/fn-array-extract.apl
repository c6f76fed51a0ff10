// expect: $[*].id collects ids (the element without id contributes nothing); $[1][0] -> [[1,2],[3]]
print a = array_extract(dynamic([{"id":1,"v":true},{"id":2,"v":false},{"x":3}]), "$[*].id"), b = array_extract(dynamic([[1,2],[3,4]]), "$[1][0]")
