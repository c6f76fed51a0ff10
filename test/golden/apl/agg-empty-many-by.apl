// expect: empty input with by: header only: method, count_, sum_bytes, avg_bytes
ds | where method == "PATCH" | summarize count(), sum(bytes), avg(bytes) by method
