// expect: !in with a dynamic array; null status none -> methods not in [GET, get]: PUT, DELETE, POST newest first
let m = dynamic(["GET", "get"]);
ds | where method !in (m) | project method
