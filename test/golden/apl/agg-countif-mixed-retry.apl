// expect: retry as text "3" in long (e1) and string (e6) rows -> 2; isnull(retry) -> 1 (e7)
ds | summarize three = countif(tostring(retry) == "3"), missing = countif(isnull(retry))
