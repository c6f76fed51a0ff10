// expect: rightsemi: right rows with a match, right columns only -> ["Paris",1]
ds | join kind=rightsemi (datatable(city:string, k:long)["Paris",1,"Rome",2]) on city
