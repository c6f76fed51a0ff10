// expect: order is sort; desc with nulls first -> null, 1000, 700.5, 250.25, 99.9, 42, 12.5, 5.5
ds | order by dur desc nulls first | project dur
