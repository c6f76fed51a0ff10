// retry is a long in some batches and a string in others
ds | summarize c = count() by r = toint(retry) | sort by r asc
