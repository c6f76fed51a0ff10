// expect: result {"A1":12,"B1":2,"C1":3,"A2":81,"B2":82} (a Quarry extension, docs/apl.md) (source: https://learn.microsoft.com/kusto/query/bag-merge-function)
print result = bag_merge(dynamic({ 'A1':12, 'B1':2, 'C1':3}), dynamic({ 'A2':81, 'B2':82, 'A1':1}))
