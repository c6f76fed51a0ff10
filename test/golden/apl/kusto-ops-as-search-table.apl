// expect: the one row with the term Green, in a string column $table first, named Customers by `as` (source: https://learn.microsoft.com/kusto/query/as-operator "the name given by as will be used in ... the $table column of search"; https://learn.microsoft.com/kusto/query/search-operator "the output always includes a column called $table of type string")
datatable(FirstName: string, LastName: string)
[
  "Mason", "Green",
  "Adam", "Brown"
]
| as Customers
| search "Green"
