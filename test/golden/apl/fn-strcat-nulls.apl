// expect: nulls and missing become "", numbers via tostring; asc GET-Paris-3, POST--1, GET-Berlin-0, get-Paris-2, DELETE-São Paulo-x, GET-Berlin-3, PUT-Paris-, GET--2
ds | sort by _time asc | project s = strcat(method, "-", city, "-", retry)
