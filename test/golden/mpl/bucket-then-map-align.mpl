golden:lat | bucket to 5m using interpolate_cumulative_histogram(increase, 0.5) | map is::lt(0.3) | align to 1h using avg
