// expect: rightanti: right rows without a match, right columns only -> ["Rome",2]
ds | join kind=rightanti (datatable(city:string, k:long)["Paris",1,"Rome",2]) on city
