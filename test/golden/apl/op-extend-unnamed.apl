// expect: an unnamed extend expression is named Column1 -> Column1:integer [20]
ds | where method == "PUT" | extend bytes * 2 | project Column1
