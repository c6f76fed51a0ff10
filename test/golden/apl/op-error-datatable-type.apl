// expect: "2" in a long column is a type mismatch (400), not a string smuggled into a long column: error invalid apl_type_mismatch
datatable(name:string, n:long)["a", 1, "b", "2"]
