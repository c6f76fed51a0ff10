// Kusto: the dynamic data type, "Dynamic literals" (`print d=dynamic({"a": datetime(1970-05-11)})`, with
// other typed literals): a bag of a datetime, a long and a timespan; d.n + 1 is 8.
// https://learn.microsoft.com/kusto/query/scalar-data-types/dynamic
print d = dynamic({"a": datetime(1970-05-11), "n": long(7), "t": timespan(2h)})
| extend n1 = tolong(d.n) + 1, t = totimespan(d.t)
