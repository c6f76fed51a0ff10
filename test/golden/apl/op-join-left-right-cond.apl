// expect: $left.a == $right.b condition; columns a, x, b, y -> ["p",1,"p",5]
datatable(a:string, x:long)["p",1,"q",2] | join (datatable(b:string, y:long)["p",5]) on $left.a == $right.b
