// expect: 1->2->3, 1"2"3 (source: https://learn.microsoft.com/kusto/query/strcat-array-function, both examples)
print str = strcat_array(dynamic([1, 2, 3]), "->"), quotes = strcat_array(dynamic([1, 2, 3]), '"')
