// expect: regex parse with a typed capture -> k 42 long
ds | parse kind=regex msg with @"key=" k:long | where isnotnull(k) | project k
