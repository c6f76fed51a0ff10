// expect: convert_force(1.2, 'Newton', 'Decanewton') -> 0.12; an unknown unit -> null (source: https://learn.microsoft.com/kusto/query/convert-force-function, the page's example)
print result = convert_force(1.2, 'Newton', 'Decanewton'), unknown = convert_force(1, 'Parsec', 'Fortnight')
