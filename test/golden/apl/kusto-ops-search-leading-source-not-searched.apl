// expect: no rows. A leading search's terms match the tables' own columns; `$table` is the column search
// adds to name each record's table (Kusto's search page: "The output always includes a column called
// $table of type string", source: https://learn.microsoft.com/kusto/query/search-operator), not a column
// of the table, so the name "nested" matches nothing when no value of the dataset holds that term.
search in (nested) "nested"
| summarize n = count()
