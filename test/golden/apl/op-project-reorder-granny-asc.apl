// expect: granny order compares digit runs as numbers: a1, a2, a10 -> columns a1, a2, a10, b2, x; [5,4,2,1,3]
datatable(b2:long, a10:long, x:long, a2:long, a1:long)[1, 2, 3, 4, 5] | project-reorder a* granny-asc
