// expect: a later item of one extend sees an earlier one (Kusto, documented engine choice) -> a=10, b=11 for PUT
ds | where method == "PUT" | extend a = bytes, b = a + 1 | project a, b
