// expect: inner join on key: city key once, left then right columns -> Berlin 2 DE, Paris 3 FR (Rome unmatched, null city never matches)
ds | summarize n = count() by city | join kind=inner (datatable(city:string, country:string)["Paris","FR","Berlin","DE","Rome","IT"]) on city | sort by city asc
