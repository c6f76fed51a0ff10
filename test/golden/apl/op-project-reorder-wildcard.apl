// expect: listed/matched columns first in listed order, rest in input order -> dur, city, method, status, bytes [42,"Paris","PUT","301",10]
ds | where method == "PUT" | project method, status, city, dur, bytes | project-reorder d*, c*
