// expect: project-reorder with explicit names moves them to the front in listed order -> status, _time, then method, bytes
ds | where method == "PUT" | project method, bytes, _time, status | project-reorder status, _time
