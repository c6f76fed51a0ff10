// Kusto: project-reorder, "Reorder a table with three columns" (b, a, c).
// https://learn.microsoft.com/kusto/query/project-reorder-operator
print a='a', b='b', c='c'
|  project-reorder b
