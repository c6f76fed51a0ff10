// expect: has_any with a let-bound dynamic array of terms -> "moved", "user login ok", "user_login ok" newest first
let terms = dynamic(["OK", "moved"]);
ds | where msg has_any (terms) | project msg
