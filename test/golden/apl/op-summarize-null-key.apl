// expect: a null key forms one group: city null has 2 rows (missing and explicit null), sum(bytes) 3234
ds | summarize n = count(), b = sum(bytes) by city | where isnull(city)
