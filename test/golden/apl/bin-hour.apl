ds | summarize c = count() by bin(_time, 1h) | sort by _time asc
