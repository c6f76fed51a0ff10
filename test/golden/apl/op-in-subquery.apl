// expect: methods seen with a 5xx status: POST (500), DELETE (503), GET (502); rows with those methods (exact, case-sensitive): GET x4, POST, DELETE -> ["DELETE",1], ["GET",4], ["POST",1]
ds | where method in ((ds | where toint(status) >= 500 | project method)) | summarize n = count() by method | sort by method asc
