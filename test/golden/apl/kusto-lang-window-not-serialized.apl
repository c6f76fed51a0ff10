// Kusto: window functions: "the row set must be serialized" (window-functions.md); a scan is not, so
// row_number() over it is an error (add | serialize or | sort by).
// https://learn.microsoft.com/kusto/query/window-functions
ds | extend rn = row_number()
