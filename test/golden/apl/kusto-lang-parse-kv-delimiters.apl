// Kusto: parse-kv operator, "Extraction with well-defined delimiters".
// https://learn.microsoft.com/kusto/query/parse-kv-operator
print str="ThreadId:458745723, Machine:Node001, Text: The service is up, Level: Info"
| parse-kv str as (Text: string, ThreadId:long, Machine: string) with (pair_delimiter=',', kv_delimiter=':')
| project-away str
