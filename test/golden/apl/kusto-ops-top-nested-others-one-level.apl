// expect: the page's "Top five states ... with others grouped" pattern on known rows: c 4, b 3, then OtherStates 3 (a 2 + d 1) (source: https://learn.microsoft.com/kusto/query/top-nested-operator "with others": "one record is added with the value that is the aggregation over all records that didn't make it to the top")
datatable(State: string, Damage: long) ["a", 2, "b", 3, "c", 4, "d", 1]
| top-nested 2 of State with others = "OtherStates" by sum(Damage)
