// expect: _ separates terms; has matches whole terms case-insensitively; a multi-term RHS matches consecutive terms -> by _time asc: E1 T,F,F,T; E3 F,T,F,F; E4 T,F,F,F; E6 T,F,F,T; others all F
ds | project _time, a = msg has "login", b = msg has "miss", c = msg has "log", d = msg has "user_login" | sort by _time asc | project a, b, c, d
