// expect: top by a computed expression asc nulls last -> GET 5.5, GET 12.5
ds | top 2 by dur * 2 asc nulls last | project method, dur
