// expect: dynamic list form over dur: p25 -> 12.5, p75 rank ceil(5.25)=6 -> 700.5: [12.5,700.5]
ds | summarize p = percentiles_array(dur, dynamic([25, 75]))
