ds | summarize arg_max(dur, method, status) by city | sort by city asc
