// expect: dcount_city 3 (nulls ignored), dcount_method 5 (case-sensitive), dcount_ 4 (expression tolower -> unnamed suffix empty)
ds | summarize dcount(city), dcount(method), dcount(tolower(method))
