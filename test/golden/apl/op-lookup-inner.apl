// expect: lookup kind=inner drops unmatched rows -> 00:10 FR, 00:50 DE, 01:05 FR, 02:00 DE, 02:15 FR
let dim = datatable(city:string, country:string)["Paris","FR","Berlin","DE"]; ds | lookup kind=inner dim on city | project _time, country | sort by _time asc
