// expect: white space normalized: "a b" x2, "c" x3, "d" x1, empty skipped; top 2 by count -> [["c","a b"]]
datatable(t:string)["a  b", "a b", " c ", "c", "c", "", "d"] | summarize phrases(t, 2)
