// expect: fullouter: both unmatched sides -> null 2 null, Berlin 2 null, Paris 3 FR, Rome null IT, São Paulo 1 null
ds | summarize n = count() by city | join kind=fullouter (datatable(city:string, country:string)["Paris","FR","Rome","IT"]) on city | sort by city asc
