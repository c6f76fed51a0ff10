// expect: simple parse: capture to first " ", rest to end; no match (moved) and null msg -> null captures, rows kept; sort msg asc nulls first
ds | parse msg with word1 " " rest | project msg, word1, rest | sort by msg asc
