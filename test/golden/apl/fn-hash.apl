// expect: 64-bit FNV-1a of the UTF-8 text (salt text and a zero byte first), top 53 bits signed; computed independently in Python -> [-875261669103574,-2316364077274781,-1831427262872508,null]
print a = hash("abc"), b = hash("abc", 7), c = hash(""), d = hash(dynamic(null))
