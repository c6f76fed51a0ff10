// expect: search "*x*" = contains; or combines -> "upstream timeout", "moved" newest first
ds | search "*out*" or "*ove*" | project _time, msg
