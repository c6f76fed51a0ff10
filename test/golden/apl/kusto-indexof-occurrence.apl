// Kusto: https://learn.microsoft.com/kusto/query/indexof-function (example) -- 2, 2, -1, -1, 2, 4, 2, 9, -1
print
 idx1 = indexof("abcdefg","cde")
 , idx2 = indexof("abcdefg","cde",1,4)
 , idx3 = indexof("abcdefg","cde",1,2)
 , idx4 = indexof("abcdefg","cde",3,4)
 , idx5 = indexof("abcdefg","cde",-5)
 , idx6 = indexof(1234567,5,1,4)
 , idx7 = indexof("abcdefg","cde",2,-1)
 , idx8 = indexof("abcdefgabcdefg", "cde", 1, 10, 2)
 , idx9 = indexof("abcdefgabcdefg", "cde", 1, -1, 3)
