// expect: convert_temperature(1.2, 'Kelvin', 'DegreeCelsius') -> -271.95; an unknown unit -> null (source: https://learn.microsoft.com/kusto/query/convert-temperature-function, the page's example)
print result = convert_temperature(1.2, 'Kelvin', 'DegreeCelsius'), unknown = convert_temperature(1, 'Parsec', 'Fortnight')
