// expect: every string column: digits masked one * per character, so status "404" -> "***" and msg key=42 -> key=** -> ["cache_miss key=**","***","GET"]
ds | where status == "404" | redact @"\d+" | project msg, status, method
