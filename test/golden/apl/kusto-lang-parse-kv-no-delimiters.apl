// Kusto: parse-kv operator, "Extraction with no well-defined delimiters" (no with (...)).
// https://learn.microsoft.com/kusto/query/parse-kv-operator
print str="2021-01-01T10:00:34 [INFO] ThreadId:458745723, Machine:Node001, Text: Started"
| parse-kv str as (Text: string, ThreadId:long, Machine: string)
| project-away str
