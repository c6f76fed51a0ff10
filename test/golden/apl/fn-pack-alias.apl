// expect: pack is bag_pack alias: {"k":"v","n":2}
print p = pack("k", "v", "n", 2)
