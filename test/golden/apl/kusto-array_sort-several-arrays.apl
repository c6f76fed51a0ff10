// Kusto: https://learn.microsoft.com/kusto/query/array-sort-asc-function and array-sort-desc-function (example 1) -- the second array follows the first: asc [1,2,3,4,5] / ["a","e","b","c","d"], desc [5,4,3,2,1] / ["d","c","b","e","a"]; Quarry returns the sorted arrays as one array in a scalar context (docs/apl.md)
let array1 = dynamic([1,3,4,5,2]);
let array2 = dynamic(["a","b","c","d","e"]);
print asc = array_sort_asc(array1,array2), desc = array_sort_desc(array1,array2)
