// expect: 555-1234|555-1212|46|{"Source":"555-1234","Target":"555-1212","Count":46}|{"Source":"555-1234","Target":"555-1212"}, 555-2424|""|null|{"Source":"555-2424","Target":"","Count":null}|{"Source":"555-2424"} (source: https://learn.microsoft.com/kusto/query/mv-apply-operator "Applying mv-apply to a property bag", with the page's pack_all())
datatable(Source: string, Target: string, Count: long)
[
    '555-1234', '555-1212', 46,
    '555-2424', '', int(null)
]
| extend Pack = pack_all()
| mv-apply removeProperties = Pack on
    (
    mv-expand kind = array Pack
    | where Pack[1] !startswith "555"
    | summarize propsToRemove = make_set(Pack[0])
    )
| extend values = bag_remove_keys(Pack, propsToRemove)
| project-away propsToRemove
