// expect: x keeps "old" where city is missing or null (rows 2 and 8), else takes city -> ["200","Paris"], ["500","old"], ["404","Berlin"], ["200","Paris"], ["503","São Paulo"], ["200","Berlin"], ["301","Paris"], ["502","old"]
ds | extend x = "old" | extend-valid x = city | sort by _time asc | project status, x
