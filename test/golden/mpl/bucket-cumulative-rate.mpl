golden:lat | bucket to 30m using interpolate_cumulative_histogram(rate, count, 0.99)
