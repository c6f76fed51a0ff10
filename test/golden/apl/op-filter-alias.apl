// expect: filter is an alias of where: status "200" -> count 3
ds | filter status == "200" | count
