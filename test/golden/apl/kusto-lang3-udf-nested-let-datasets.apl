// expect: a function defined inside a body reads ds2 through its own let (ds2 has 2 events in the window, so toscalar(g()) = 2); the outer body's let keeps the ds events with bytes > 2 (100, 2000, 50, 300, 10, 1234; null and 0 are not): n = 6 (source: https://learn.microsoft.com/kusto/query/functions/user-defined-functions ; https://learn.microsoft.com/kusto/query/let-statement)
let f = () {
  let g = () { let U = ds2 | count; U };
  let T = ds | where bytes > toscalar(g());
  T | summarize n = count()
};
f()
