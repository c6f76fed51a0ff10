// expect: a piped search over no table (range) still has a string $table, some system-generated name: the row x == 2 with a non-empty name (source: https://learn.microsoft.com/kusto/query/search-operator "The output always includes a column called $table of type string ... (or some system-generated name if the source isn't a table but a composite expression)")
range x from 1 to 3 step 1
| search x == 2
| project named = isnotempty(["$table"]), x
