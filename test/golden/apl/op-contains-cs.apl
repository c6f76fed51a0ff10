// expect: contains_cs is case-sensitive -> only "Login failed"
ds | where msg contains_cs "Log" | project msg
