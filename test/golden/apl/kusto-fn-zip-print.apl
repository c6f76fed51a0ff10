// expect: elements of the same index paired; the shorter array pads with null -> [[1,2],[3,4],[5,6]] and [["A",{}],[1,"B"],[1.5,null]] (source: https://learn.microsoft.com/kusto/query/zip-function, the page's example)
print a = zip(dynamic([1,3,5]), dynamic([2,4,6])), b = zip(dynamic(["A", 1, 1.5]), dynamic([{}, "B"]))
