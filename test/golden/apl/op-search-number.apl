// expect: a bare search term matches numbers as text terms too: dur 42 and "key=42" -> 02:15, 00:50
ds | search "42" | project _time
