// expect: a=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad (abc), b=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 ("")
print a = hash_sha256("abc"), b = hash_sha256("")
