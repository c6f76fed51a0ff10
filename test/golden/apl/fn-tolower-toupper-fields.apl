// expect: tolower(method) asc get,post,get,get,delete,get,put,get; toupper(city) PARIS,null,BERLIN,PARIS,SÃO PAULO,BERLIN,PARIS,null
ds | sort by _time asc | project l = tolower(method), u = toupper(city)
