// expect: no by: one row; count 8, sum(bytes) skips null = 3694, min(dur) 5.5, max(_time) 03:45
ds | summarize n = count(), s = sum(bytes), mn = min(dur), mx = max(_time)
