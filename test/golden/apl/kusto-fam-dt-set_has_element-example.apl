// expect: Result true (source: https://learn.microsoft.com/kusto/query/set-has-element-function)
print arr=dynamic(["this", "is", "an", "example"])
| project Result=set_has_element(arr, "example")
