// expect: lookup defaults to leftouter: every row kept, country null when unmatched or city null -> by _time asc FR, null, DE, FR, null, DE, FR, null
let dim = datatable(city:string, country:string)["Paris","FR","Berlin","DE"]; ds | lookup dim on city | project _time, city, country | sort by _time asc
