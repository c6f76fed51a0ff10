// ascending puts nulls first
ds | top 3 by dur asc | project dur, method
