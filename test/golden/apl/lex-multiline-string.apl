// expect: a ``` string spans lines raw (no escapes): "line1\nline2\\n" has 5+1+5+2 = 13 characters -> ["line1\nline2\\n",13]
print s = ```line1
line2\n``` | extend n = strlen(s)
