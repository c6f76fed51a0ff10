golden:job | bucket by queue to 30m using interpolate_delta_histogram(min, max, count, avg, 0.5)
