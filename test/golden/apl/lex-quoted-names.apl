// expect: quoted names with a space, a dash and a keyword; keep their text as column names. Asc: (ann,r1,null), (bob,r2,null), (null,r3,w3)
nested | sort by _time asc | project ['user name'], ["req-id"], ['where']
