// expect: rightouter: matched rows plus unmatched right rows with null left columns, shared key from the right -> Paris 3 FR, Rome null IT
ds | summarize n = count() by city | join kind=rightouter (datatable(city:string, country:string)["Paris","FR","Rome","IT"]) on city | sort by city asc
