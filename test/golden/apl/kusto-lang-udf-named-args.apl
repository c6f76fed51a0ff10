// Kusto: user-defined functions, "Default values" (arguments named in any order; output two rows
// "12-b.default-7").
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let f = (a:long, b:string = "b.default", c:long = 0) {
  strcat(a, "-", b, "-", c)
};
union
  (print x=f(c=7, a=12)), // "12-b.default-7"
  (print x=f(12, c=7))    // "12-b.default-7"
