// Kusto: "Callers must provide the value of all parameters with no default values": f(c = 7) lacks a.
let f = (a:long, b:string = "b.default", c:long = 0) { strcat(a, "-", b, "-", c) };
print x = f(c = 7)
