// expect: 5|true|true|false|true and null|null|true|null|null (columns val, IsBiggerThan3, IsBiggerThan3OrNull, IsEqualToNull, IsNotEqualToNull) (source: https://learn.microsoft.com/kusto/query/scalar-data-types/null-values "Equality and inequality of null values")
datatable(val:int)[5, int(null)]
| extend IsBiggerThan3 = val > 3
| extend IsBiggerThan3OrNull = val > 3 or isnull(val)
| extend IsEqualToNull = val == int(null)
| extend IsNotEqualToNull = val != int(null)
