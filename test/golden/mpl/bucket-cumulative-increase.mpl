golden:lat | bucket by svc to 20m using interpolate_cumulative_histogram(increase, 0.5, 0.9, count, sum, avg)
