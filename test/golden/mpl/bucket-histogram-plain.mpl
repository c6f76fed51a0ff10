golden:cpu | bucket by region to 30m using histogram(count, min, max, avg, 0.5)
