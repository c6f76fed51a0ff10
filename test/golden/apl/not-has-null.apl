ds | where msg !has "user" | summarize count()
