// expect: bagexpansion=bag (the default) gives one single-key bag per entry -> [{"k1":1}], [{"k2":"v"}]
print d = dynamic({"k1": 1, "k2": "v"}) | mv-expand bagexpansion=bag d
