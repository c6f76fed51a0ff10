// expect: a piped search over a table names the table in $table: the 3 Paris rows of ds, $table "ds" (source: https://learn.microsoft.com/kusto/query/search-operator "The output always includes a column called $table of type string whose value is the table name from which each record was retrieved")
ds
| search "paris"
| summarize rows = count() by ["$table"]
