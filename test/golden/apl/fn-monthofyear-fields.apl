// expect: all 8 events are in May: one group m=5 with count 8
ds | summarize c = count() by m = monthofyear(_time)
