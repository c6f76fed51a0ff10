golden:cpu | group by region using sum | group by region, host using sum
