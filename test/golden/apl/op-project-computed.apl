// expect: project keeps exactly the listed items in order, computed items named -> m:string, city:string, kb:float ["delete","São Paulo",0]
ds | where method == "DELETE" | project m = tolower(method), city, kb = bytes / 1000.0
