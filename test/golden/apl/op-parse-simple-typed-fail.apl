// expect: simple: a failed typed capture nulls all captures -> "a=1 b=x" [null,null]; "a=2 b=3" [2,3]
datatable(s:string)["a=2 b=3", "a=1 b=x"] | parse s with "a=" a:int " b=" b:int | project s, a, b | sort by s asc
