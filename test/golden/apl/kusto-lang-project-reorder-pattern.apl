// Kusto: project-reorder, columns matching a* in ascending name order first (a1, a2, a3, b).
// https://learn.microsoft.com/kusto/query/project-reorder-operator
print b = 'b', a2='a2', a3='a3', a1='a1'
|  project-reorder a* asc
