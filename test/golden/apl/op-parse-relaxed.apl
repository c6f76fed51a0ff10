// expect: relaxed: a failed typed capture nulls only that capture -> "a=1 b=x" [1,null]; "a=2 b=3" [2,3]
datatable(s:string)["a=2 b=3", "a=1 b=x"] | parse kind=relaxed s with "a=" a:int " b=" b:int | project s, a, b | sort by s asc
