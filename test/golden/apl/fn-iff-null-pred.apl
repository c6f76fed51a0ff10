// expect: iff with null predicate (bytes null on e4) takes else branch; by _time asc r = small,big,small,small,small,big,small,big
ds | sort by _time asc | project r = iff(bytes > 100, "big", "small")
