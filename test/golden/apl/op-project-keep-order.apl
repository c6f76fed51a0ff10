// expect: project-keep keeps matches in input order -> bytes, city, status [10,"Paris","301"]
ds | where method == "PUT" | project-keep status, b*, city
