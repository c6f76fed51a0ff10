// expect: x listed first, then a* in granny-desc: a10, a2, a1, then b2 -> columns x, a10, a2, a1, b2; [3,2,4,5,1]
datatable(b2:long, a10:long, x:long, a2:long, a1:long)[1, 2, 3, 4, 5] | project-reorder x, a* granny-desc
