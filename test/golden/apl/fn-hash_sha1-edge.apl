// expect: a=a9993e364706816aba3e25717850c26c9cd0d89d (abc), b=da39a3ee5e6b4b0d3255bfef95601890afd80709 ("")
print a = hash_sha1("abc"), b = hash_sha1("")
