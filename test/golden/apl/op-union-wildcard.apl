// expect: ds* matches ds (8 events in the window) and ds2 (2) -> ["ds",8], ["ds2",2]
union withsource=src ds* | summarize n = count() by src | sort by src asc
