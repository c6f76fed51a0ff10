// Kusto: project-rename, the example (new_a, new_b, c keep their order: a, b, c).
// https://learn.microsoft.com/kusto/query/project-rename-operator
print a='a', b='b', c='c'
|  project-rename new_b=b, new_a=a
