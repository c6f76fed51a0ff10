// expect: md5 hex: a=900150983cd24fb0d6963f7d28e17f72 (abc), b=d41d8cd98f00b204e9800998ecf8427e (""), c=c4ca4238a0b923820dcc509a6f75849b (tostring(1)="1")
print a = hash_md5("abc"), b = hash_md5(""), c = hash_md5(1)
