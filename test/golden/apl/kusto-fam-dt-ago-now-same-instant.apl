// expect: all true: every ago() and now() of one query use the same current time, and now(-2d) is the time 2 days ago (source: https://learn.microsoft.com/kusto/query/ago-function, https://learn.microsoft.com/kusto/query/now-function)
print a = ago(1h) == now() - 1h, b = now() == now(), c = ago(0s) == now(), d = now(-2d) == now() - 2d, e = now(-2d) == ago(2d)
