ds | where method in ("GET", "POST") | make-series c = count(), d = avg(dur) default = -1 on _time from datetime(2024-05-01) to datetime(2024-05-01T04:00) step 1h by method | sort by method asc
