// expect: convert_energy(1.2, 'Joule', 'BritishThermalUnit') -> 0.00113738054437598 (rounded to the 17 decimals the page prints); an unknown unit -> null (source: https://learn.microsoft.com/kusto/query/convert-energy-function, the page's example)
print result = round(convert_energy(1.2, 'Joule', 'BritishThermalUnit'), 17), unknown = convert_energy(1, 'Parsec', 'Fortnight')
