// Kusto: https://learn.microsoft.com/kusto/query/extract-all-function (the four examples) -- one group: 16 hex bytes; three groups: 5 triples; groups [1,3]: 5 pairs; named groups ['first',2,'last']: the 5 triples
print Id="82b8be2d-dfa7-4bd1-8f63-24ad26d31449"
| extend one = extract_all(@"([\da-f]{2})", Id),
         three = extract_all(@"(\w)(\w+)(\w)", Id),
         subset = extract_all(@"(\w)(\w+)(\w)", dynamic([1,3]), Id),
         named = extract_all(@"(?P<first>\w)(?P<middle>\w+)(?P<last>\w)", dynamic(['first',2,'last']), Id)
| project-away Id
