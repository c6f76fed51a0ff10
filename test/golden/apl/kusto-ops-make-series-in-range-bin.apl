// expect: with `in range`, bins follow bin() and not bin_at(), "which means that start may not be included": start 00:30 with step 1h gives bins 00:00, 01:00, 02:00 (stop 02:10 inclusive, so its bin 02:00 too); counts 2, 1, 1 (source: https://learn.microsoft.com/kusto/query/make-series-operator "Alternate Syntax")
datatable(t: datetime) [datetime(2020-01-01T00:40), datetime(2020-01-01T00:50), datetime(2020-01-01T01:10), datetime(2020-01-01T02:05)]
| make-series count() on t in range(datetime(2020-01-01T00:30), datetime(2020-01-01T02:10), 1h)
