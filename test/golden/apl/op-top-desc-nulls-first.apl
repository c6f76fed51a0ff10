// expect: top desc with nulls first -> null (00:50 GET), 1000 DELETE
ds | top 2 by dur desc nulls first | project dur, method
