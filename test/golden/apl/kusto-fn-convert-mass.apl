// expect: convert_mass(1.2, 'Kilogram', 'Pound') -> 2.64554714621853 (rounded to the 14 decimals the page prints); an unknown unit -> null (source: https://learn.microsoft.com/kusto/query/convert-mass-function, the page's example)
print result = round(convert_mass(1.2, 'Kilogram', 'Pound'), 14), unknown = convert_mass(1, 'Parsec', 'Fortnight')
