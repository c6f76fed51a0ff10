// expect: default kind is inner; a taken right column name gets 1 appended -> city, n, n1 ["Paris",3,100]
let r = datatable(city:string, n:long)["Paris", 100]; ds | summarize n = count() by city | join (r) on city
