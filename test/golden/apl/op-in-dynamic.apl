// expect: in with a let-bound dynamic array; nested arrays are flattened -> 502, 503, 500 newest first
let codes = dynamic(["500", "502", ["503"]]);
ds | where status in (codes) | project status
