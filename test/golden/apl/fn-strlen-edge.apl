// expect: a=0 (""), b=4 ("Ünïc" chars), c=null
print a = strlen(""), b = strlen("Ünïc"), c = strlen(string(null))
