// expect: case-insensitive operators fold non-ASCII letters -> contains "SÃO" true, =~ "SÃO PAULO" true, startswith "são" true, for the São Paulo row only
ds | where city contains "SÃO" | project city, a = city =~ "SÃO PAULO", b = city startswith "são"
