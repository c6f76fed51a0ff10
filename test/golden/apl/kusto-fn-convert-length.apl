// expect: convert_length(1.2, 'Meter', 'Foot') -> 3.93700787401575 (rounded to the 14 decimals the page prints); an unknown unit -> null (source: https://learn.microsoft.com/kusto/query/convert-length-function, the page's example)
print result = round(convert_length(1.2, 'Meter', 'Foot'), 14), unknown = convert_length(1, 'Parsec', 'Fortnight')
