// expect: "1","2.5","true","2024-05-01T10:00:00Z","[1,\"a\"]","{\"k\":1}",""(null)
print a = tostring(1), b = tostring(2.5), c = tostring(true), d = tostring(datetime(2024-05-01T10:00:00Z)), e = tostring(dynamic([1, "a"])), f = tostring(dynamic({"k": 1})), g = tostring(long(null))
