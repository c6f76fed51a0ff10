// expect: project-away with prefix wildcards drops _sysTime,_time,tags,method,msg -> bytes, city, dur, retry, status of the newest row [1234,null,700.5,2,"502"]
ds | take 1 | project-away _*, t*, m*
