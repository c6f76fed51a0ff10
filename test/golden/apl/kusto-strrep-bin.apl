// Kusto: https://learn.microsoft.com/kusto/query/strrep-function and bin-function (examples) -- ABCABC, 123.123.123, 00:00:03 00:00:03; bin 4, 14 days, 1970-05-11T00:00:00Z
print from_str = strrep('ABC', 2), from_int = strrep(123,3,'.'), from_time = strrep(3s,2,' '),
      b1 = bin(4.5, 1), b2 = bin(time(16d), 7d), b3 = bin(datetime(1970-05-11 13:45:07), 1d)
