// expect: avgif_dur over Paris (null city false): (12.5+99.9+42)/3=51.46666666666667; b no rows -> null
ds | summarize avgif(dur, city == "Paris"), b = avgif(dur, false)
