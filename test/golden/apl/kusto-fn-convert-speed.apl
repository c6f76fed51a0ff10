// expect: convert_speed(1.2, 'MeterPerSecond', 'CentimeterPerHour') -> 432000; an unknown unit -> null (source: https://learn.microsoft.com/kusto/query/convert-speed-function, the page's example)
print result = convert_speed(1.2, 'MeterPerSecond', 'CentimeterPerHour'), unknown = convert_speed(1, 'Parsec', 'Fortnight')
