// Kusto: https://learn.microsoft.com/kusto/query/scalar-data-types/dynamic (dynamic literals: dynamic([value, ...]) is "an array of dynamic or other scalar literals", dynamic(value) holds the value, dynamic(null) is null) -- [1,[2],{"a":3},null]; a datetime literal inside a dynamic literal keeps its instant: year 2007, and 2015-12-31 23:59:59.9 compares equal after todatetime
print d = dynamic([1, dynamic([2]), dynamic({"a": 3}), dynamic(null)]),
      y = getyear(todatetime(dynamic([datetime(2007-01-01), 1])[0])),
      eq = todatetime(dynamic({"t": datetime(2015-12-31 23:59:59.9)}).t) == datetime(2015-12-31 23:59:59.9)
