// Kusto: parse-kv operator, no delimiters with quoting and escaping.
// https://learn.microsoft.com/kusto/query/parse-kv-operator
print str="2021-01-01T10:00:34 [INFO] ThreadId:458745723, Machine:Node001, Text: 'The service \\' is up'"
| parse-kv str as (Text: string, ThreadId:long, Machine: string) with (quote="'", escape='\\')
| project-away str
