ds | parse msg with * "key=" key:int | where isnotnull(key) | project key, msg
