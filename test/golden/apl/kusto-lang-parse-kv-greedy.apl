// Kusto: parse-kv operator, "Extraction in greedy mode" (second query, greedy=true).
// https://learn.microsoft.com/kusto/query/parse-kv-operator
print str='name=John Doe phone=555 5555 city=New York'
| parse-kv str as (name:string, phone:string, city:string) with (pair_delimiter=' ', kv_delimiter='=', greedy=true)
| project-away str
