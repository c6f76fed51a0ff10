// expect: new columns are null unless valid: array_length 0 (tags []) and missing tags -> null; bytes 0 and null -> null -> ["200",2,100], ["500",null,2000], ["404",null,50], ["200",1,null], ["503",null,null], ["200",1,300], ["301",null,10], ["502",null,1234]
ds | extend-valid n = array_length(tags), b = bytes | sort by _time asc | project status, n, b
