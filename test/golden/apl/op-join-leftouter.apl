// expect: leftouter keeps all left rows, right columns null when unmatched; null key never matches -> null 2 null, Berlin 2 null, Paris 3 FR, São Paulo 1 null
ds | summarize n = count() by city | join kind=leftouter (datatable(city:string, country:string)["Paris","FR","Rome","IT"]) on city | sort by city asc
