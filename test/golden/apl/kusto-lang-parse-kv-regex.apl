// Kusto: parse-kv operator, "Extraction using regex" (Quarry has no guid type: a guid is its text).
// https://learn.microsoft.com/kusto/query/parse-kv-operator
print str=@'["referer url: https://hostname.com/redirect?dest=/?h=1234", "request url: https://hostname.com/?h=1234", "advertiser id: 24fefbca-cf27-4d62-a623-249c2ad30c73"]'
| parse-kv str as (['referer url']:string, ['request url']:string, ['advertiser id']: guid) with (regex=@'"([\w ]+)\s*:\s*([^"]*)"')
| project-away str
