// expect: {"Browser": {"Family": "AdobeAIR", "MajorVersion": "2", "MinorVersion": "5", "Patch": "1"}} (source: https://learn.microsoft.com/kusto/query/parse-user-agent-function, "Look-for parameter as string")
print useragent = "Mozilla/5.0 (Windows; U; en-US) AppleWebKit/531.9 (KHTML, like Gecko) AdobeAIR/2.5.1"
| extend x = parse_user_agent(useragent, "browser") 
