// expect: timespan 1.12:30:55.1230000 (Quarry writes 1.12:30:55.1230000 for the timespan's text); an hour of 24 is null (the page: hour 0-23) (source: https://learn.microsoft.com/kusto/query/make-timespan-function)
print ['timespan'] = make_timespan(1,12,30,55.123), text = tostring(make_timespan(1,12,30,55.123)), hm = make_timespan(2, 30), bad = make_timespan(24, 0)
