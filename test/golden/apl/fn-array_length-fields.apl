// expect: tags [a,b]=2, []=0, missing=null, [c]=1; asc 2,0,null,1,null,1,null,null
ds | sort by _time asc | project n = array_length(tags)
