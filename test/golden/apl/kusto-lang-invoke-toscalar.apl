// Kusto: invoke operator, the example (clipped_average: toscalar over the tabular parameter, with scalar
// parameters, inside the function body): output avg_x 52. Quarry has no percentiles(); percentile(x, p)
// is the same value here.
// https://learn.microsoft.com/kusto/query/invoke-operator
let clipped_average = (T:(x: long), lowPercentile:double, upPercentile:double)
{
   let high = toscalar(T | summarize percentile(x, upPercentile));
   let low = toscalar(T | summarize percentile(x, lowPercentile));
   T 
   | where x > low and x < high
   | summarize avg(x) 
};
range x from 1 to 100 step 1
| invoke clipped_average(5, 99)
