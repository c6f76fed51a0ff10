// expect: jaccard 0.75 (a Quarry extension, docs/apl.md) (source: https://learn.microsoft.com/kusto/query/jaccard-index-function)
print set1=dynamic([1,2,3]), set2=dynamic([1,2,3,4])
| extend jaccard=jaccard_index(set1, set2)
