// expect: summarize by bin(dur, 100) names the key dur; null dur forms its own group -> null 1, 0 4, 200 1, 700 1, 1000 1
ds | summarize n = count() by bin(dur, 100) | sort by dur asc
