// expect: project-rename keeps positions -> method, code, town ["PUT","301","Paris"]
ds | where method == "PUT" | project method, status, city | project-rename code = status, town = city
