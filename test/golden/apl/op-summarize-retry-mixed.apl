// expect: retry is long in some batches and string in others; tostring unifies, null -> "": ""1, "0"1, "1"1, "2"2, "3"2, "x"1
ds | summarize n = count() by r = tostring(retry) | sort by r asc
