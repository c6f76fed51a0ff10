// expect: find with neither `in` nor `where` searches every dataset the query may read: rows of ds and ds2 whose status is 500 (nested has no status column, so it is left out), counted per source_ (source: https://learn.microsoft.com/kusto/query/find-operator "By default, find will look in all the tables in the current database"; syntax `find Predicate`)
find status == "500"
| summarize n = count() by source_
| order by source_ asc
