// expect: "error" (has, case-insensitive) in ds: "ERROR: disk full"; in ds2: "login error retry", "Error: quota"; $table names the dataset; msg sorted by code point -> ["ds","ERROR: disk full"], ["ds2","Error: quota"], ["ds2","login error retry"]
search in (ds*) "error" | project ["$table"], msg | sort by msg asc
