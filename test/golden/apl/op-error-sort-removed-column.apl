// expect: sort key not in the input -> HTTP 400: error invalid <apl_* code>
ds | project method | sort by dur
