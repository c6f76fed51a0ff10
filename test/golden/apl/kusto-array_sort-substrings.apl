// Kusto: https://learn.microsoft.com/kusto/query/array-sort-asc-function and array-sort-desc-function (example 2) -- George,John,Paul,Ringo and Ringo, Paul, John, George
let Names = "John,Paul,George,Ringo";
let Names2 = "John, Paul, George, Ringo";
print asc = strcat_array(array_sort_asc(split(Names, ",")), ","), desc = strcat_array(array_sort_desc(split(Names2, ", ")), ", ")
