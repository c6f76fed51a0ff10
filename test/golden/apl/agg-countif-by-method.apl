// expect: dur>50 per method (dur missing not counted): DELETE 1, GET 1, POST 1, PUT 0, get 1
ds | summarize c = countif(dur > 50) by method | sort by method asc
