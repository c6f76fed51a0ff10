// expect: | count counts the rows of its input: 4 city groups (null, Berlin, Paris, São Paulo) -> [4]
ds | summarize by city | count
