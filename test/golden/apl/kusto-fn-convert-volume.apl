// expect: convert_volume(1.2, 'CubicMeter', 'AcreFoot') -> 0.0009728568; an unknown unit -> null (source: https://learn.microsoft.com/kusto/query/convert-volume-function, the page's example)
print result = convert_volume(1.2, 'CubicMeter', 'AcreFoot'), unknown = convert_volume(1, 'Parsec', 'Fortnight')
