// expect: leftsemi: left rows with a match, left columns only -> 00:10, 01:05, 02:15 Paris
ds | join kind=leftsemi (datatable(city:string)["Paris"]) on city | project _time, city | sort by _time asc
