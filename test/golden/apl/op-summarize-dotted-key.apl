// expect: a dotted field as group key keeps its name geo.city; the event without geo is the null group -> (null,1), (Berlin,1), (Paris,1)
nested | summarize c = count() by geo.city | sort by geo.city asc
