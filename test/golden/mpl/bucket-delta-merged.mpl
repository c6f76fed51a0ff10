golden:job | bucket to 1h using interpolate_delta_histogram(0.25, 0.75, sum)
