// expect: leading search without in reads every dataset: "upstream timeout" in ds, "Error: quota" in ds2 -> ["ds",1], ["ds2",1]
search "timeout" or "quota" | summarize n = count() by ["$table"] | sort by ["$table"] asc
