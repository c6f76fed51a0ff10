// expect: 1-day window -> 15m buckets; each event alone: 00:00,00:15,00:45,01:00,01:30,02:00,02:15,03:45 each count 1
ds | summarize c = count() by bin_auto(_time) | sort by _time asc
