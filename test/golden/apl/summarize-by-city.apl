ds | summarize n = count(), total = sum(bytes), avg_dur = avg(dur) by city | sort by city asc
