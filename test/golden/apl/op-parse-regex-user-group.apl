// expect: regex parse: a group inside a regex constant does not shift the captures -> ["login","ok"], ["miss","key=42"]
ds | parse kind=regex msg with @"^(user|cache)_" word " " rest "$" | where isnotnull(word) | project word, rest | sort by word asc
