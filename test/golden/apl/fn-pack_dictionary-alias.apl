// expect: pack_dictionary is bag_pack alias: {"x":true}
print p = pack_dictionary("x", true)
