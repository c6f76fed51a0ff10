// expect: case skips null conditions (dur missing on e3 -> else); by _time asc: mid,slow,fast,mid,slow,fast,mid,slow
ds | sort by _time asc | project c = case(dur > 100, "slow", dur > 10, "mid", "fast")
