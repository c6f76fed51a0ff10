// expect: non-null counts: city 6 (missing in row 2, null in row 8), tags 4 (row 2 has [] which is not null), dur 7 -> [{"city":6,"tags":4,"dur":7}]
ds | summarize presence(city, tags, dur)
