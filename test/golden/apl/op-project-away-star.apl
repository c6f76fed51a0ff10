// expect: project-away * drops every column -> no columns: an empty header line and no rows
ds | where method == "PUT" | project method, status | project-away *
