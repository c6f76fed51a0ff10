// expect: convert_angle(1.2, 'Degree', 'Arcminute') -> 72; an unknown unit -> null (source: https://learn.microsoft.com/kusto/query/convert-angle-function, the page's example)
print result = convert_angle(1.2, 'Degree', 'Arcminute'), unknown = convert_angle(1, 'Parsec', 'Fortnight')
