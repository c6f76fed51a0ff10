// expect: the PUT row has every field except retry and tags; the group key method is left out -> ["PUT",{"_sysTime":1,"_time":1,"bytes":1,"city":1,"dur":1,"msg":1,"retry":0,"status":1,"tags":0}]
ds | where method == "PUT" | summarize presence(*) by method
