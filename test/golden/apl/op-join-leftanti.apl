// expect: leftanti: left rows without a match; null keys never match so they are kept -> 00:20 null, 00:50 Berlin, 01:30 São Paulo, 02:00 Berlin, 03:45 null
ds | join kind=leftanti (datatable(city:string)["Paris"]) on city | project _time, city | sort by _time asc
