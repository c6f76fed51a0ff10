// expect: true (source: https://docs.azure.cn/en-us/data-explorer/kusto/query/isascii, Kusto's isascii page as served by Azure China; https://learn.microsoft.com/kusto/query/isascii-function in the stored copy prints no output)
print result=isascii("some string")
