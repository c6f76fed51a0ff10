// expect: lookup kind other than leftouter/inner -> HTTP 400: error invalid <apl_* code>
ds | lookup kind=fullouter (datatable(city:string)["x"]) on city
