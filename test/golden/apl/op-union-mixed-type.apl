// expect: union of a long-or-string retry with a string column; values kept as they are -> count 9, 1 row with "z"
ds | project retry | union (datatable(retry:string)["z"]) | summarize n = count(), z = countif(tostring(retry) == "z")
