// Kusto: "The long data type" (scalar-data-types/long.md): `0x123` is a long literal, `long(0xf)` is 15.
// https://learn.microsoft.com/kusto/query/scalar-data-types/long
print a = 0x123, b = long(0xf)
