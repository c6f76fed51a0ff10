// Kusto: user-defined functions, "Scalar function" example (a parameter with a default value:
// Add7() is 5 + 7). https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let Add7 = (arg0:long = 5) { arg0 + 7 };
range x from 1 to 10 step 1
| extend x_plus_7 = Add7(x), five_plus_seven = Add7()
