// expect: let binds a scalar and a dynamic list -> bytes > 200 or status in codes: ["200",300], ["500",2000], ["502",1234]
let t = 200;
let codes = dynamic(["500", "502"]);
ds | where bytes > t or status in (codes) | project status, bytes | sort by status asc
