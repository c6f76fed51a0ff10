// expect: ['d*2'] is a pattern (quoted names with * are patterns) matching ds2 only -> [2]
union ['d*2'] | count
