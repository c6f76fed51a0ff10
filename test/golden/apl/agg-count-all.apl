// expect: count() counts rows incl. nulls; default name count_: [8]
ds | summarize count()
