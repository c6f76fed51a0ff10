// expect: desc by code point: a2, a10, a1 -> columns a2, a10, a1, b2, x; [4,2,5,1,3]
datatable(b2:long, a10:long, x:long, a2:long, a1:long)[1, 2, 3, 4, 5] | project-reorder a* desc
