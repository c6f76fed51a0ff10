// expect: both sides null: == and != are null; one side null long: == false -> [null,null,false]
ds | where method == "POST" | project a = city == string(null), b = city != string(null), c = bytes == long(null)
