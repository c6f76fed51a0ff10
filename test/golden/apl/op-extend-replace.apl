// expect: reusing a name replaces the column and moves it to the end with the new type -> method:string, city:string, status:integer ["PUT","Paris",302]
ds | where method == "PUT" | project method, status, city | extend status = toint(status) + 1
