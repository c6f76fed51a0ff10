// A named argument must name a parameter of the function (Kusto rejects the call): 400 at `d`.
let f = (a:long, b:string = "b.default", c:long = 0) { strcat(a, "-", b, "-", c) };
print x = f(12, d = 7)
