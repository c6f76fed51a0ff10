// Kusto: parse-kv operator, "Extraction with value quoting": a quoted key ("event time") and a quoted value.
// https://learn.microsoft.com/kusto/query/parse-kv-operator
print str='src=10.1.1.123 dst=10.1.1.124 bytes=125 failure="connection aborted" "event time"=2021-01-01T10:00:54'
| parse-kv str as (['event time']:datetime, src:string, dst:string, bytes:long, failure:string) with (pair_delimiter=' ', kv_delimiter='=', quote='"')
| project-away str
