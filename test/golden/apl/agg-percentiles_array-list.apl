// expect: percentiles_bytes [0,100,2000] for p10 (rank 1), p50 (rank 4), p90 (rank 7)
ds | summarize percentiles_array(bytes, 10, 50, 90)
