// Kusto: materialize() page: "Allows caching a sub-query result during the time of query execution in
// a way that other subqueries can reference the partial result" (its example reads one random set
// several times). A random set used twice is one set, so each of its 5 rows finds its own value in the
// join: count 5 (two evaluations would give different random values and a count of 0).
// https://learn.microsoft.com/kusto/query/materialize-function
let randomSet = materialize(range x from 1 to 5 step 1 | project value = rand());
randomSet
| join kind=inner (randomSet) on value
| count
