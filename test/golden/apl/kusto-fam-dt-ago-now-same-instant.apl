// expect: true, true: every ago() and now() of one query use the same current time (source: https://learn.microsoft.com/kusto/query/ago-function, https://learn.microsoft.com/kusto/query/now-function)
print a = ago(1h) == now() - 1h, b = now() == now(), c = ago(0s) == now()
