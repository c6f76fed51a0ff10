// Kusto: https://learn.microsoft.com/kusto/query/array-sort-asc-function (example 1: print array_sort_asc(array1,array2) gives columns array1_sorted [1,2,3,4,5] and array2_sorted ["a","e","b","c","d"]; note: "... | extend (out1, out2) = array_sort_asc(array1,array2)" names them) and array-sort-desc-function (example 1: [5,4,3,2,1], ["d","c","b","e","a"])
let array1 = dynamic([1,3,4,5,2]);
let array2 = dynamic(["a","b","c","d","e"]);
print array_sort_asc(array1,array2)
| extend (out1, out2) = array_sort_desc(array1,array2)
