// expect: the bag k1 v1, k2 v2, k3 v3; Kusto nests it under "Query Parameters", APL returns it flat as Axiom documents (https://axiom.co/docs/apl/scalar-functions/string-functions/parse-urlquery; docs/apl.md) (source: https://learn.microsoft.com/kusto/query/parse-urlquery-function)
print Result=parse_urlquery("k1=v1&k2=v2&k3=v3")
