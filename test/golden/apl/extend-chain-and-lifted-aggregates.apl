// a later extend item may use an earlier one; aggregates may be wrapped in scalar functions
ds | extend d2 = dur * 2, d4 = d2 * 2 | summarize avg4 = round(avg(d4), 2), n = count(), pct_big = round(100.0 * countif(bytes > 500) / count(), 1) by method
| sort by method asc
