// expect: in~ is case-insensitive also with a dynamic list; !in~ on null city true -> a 5 (GET x4 + get), b 3 (São Paulo, null, null)
let ms = dynamic(["get"]);
ds | summarize a = countif(method in~ (ms)), b = countif(city !in~ ("PARIS", "berlin"))
