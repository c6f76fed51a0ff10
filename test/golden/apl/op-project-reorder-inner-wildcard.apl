// expect: *2 matches b2 and a2 (input order), the rest keep input order: a10, x, a1 -> columns b2, a2, a10, x, a1; [1,4,2,3,5]
datatable(b2:long, a10:long, x:long, a2:long, a1:long)[1, 2, 3, 4, 5] | project-reorder *2
