// expect: a* matches a10, a2, a1; asc by code point: a1, a10, a2; then b2, x in input order -> columns a1, a10, a2, b2, x; [5,2,4,1,3]
datatable(b2:long, a10:long, x:long, a2:long, a1:long)[1, 2, 3, 4, 5] | project-reorder a* asc
