// expect: matches regex on a long converts it to text -> 1234, 300 (regex "3")
ds | where bytes matches regex "3" | project bytes
