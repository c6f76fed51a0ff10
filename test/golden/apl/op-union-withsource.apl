// expect: leading union with withsource: the dataset input is named ds, a non-dataset input "union" -> ["ds","PUT"], ["union","X"]
union withsource=src ds, (datatable(method:string)["X"]) | where method in ("PUT", "X") | project src, method | sort by method asc
