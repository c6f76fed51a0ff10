// Kusto: https://learn.microsoft.com/kusto/query/array-index-of-function (example) -- 2, 3, -1, -1, 3, 4, -1, 4, -1
let arr=dynamic(["this", "is", "an", "example", "an", "example"]);
print
 idx1 = array_index_of(arr,"an")
 , idx2 = array_index_of(arr,"example",1,3)
 , idx3 = array_index_of(arr,"example",1,2)
 , idx4 = array_index_of(arr,"is",2,4)
 , idx5 = array_index_of(arr,"example",2,-1)
 , idx6 = array_index_of(arr, "an", 1, -1, 2)
 , idx7 = array_index_of(arr, "an", 1, -1, 3)
 , idx8 = array_index_of(arr, "an", -3)
 , idx9 = array_index_of(arr, "is", -4)
