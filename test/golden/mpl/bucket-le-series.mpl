golden:dur_bucket | bucket to 30m using interpolate_delta_histogram(0.5, 0.9, count)
