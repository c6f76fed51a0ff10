// expect: methods of ds2 in the window (GET, POST); ds rows with those methods: GET x4, POST x1 -> [5]
ds | where method in ((ds2 | project method)) | count
