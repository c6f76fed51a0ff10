ds | where isnotnull(tags) | project n = array_length(tags), first = tostring(tags[0]) | sort by n asc
