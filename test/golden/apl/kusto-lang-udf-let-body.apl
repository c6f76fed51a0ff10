// Kusto: user-defined functions, "User-defined function that uses a let statement" (output 70).
// https://learn.microsoft.com/kusto/query/functions/user-defined-functions
let Test1 = (id: int) {
  let Test2 = 10;
  let Test3 = 10 + Test2 + id;
  let Test4 = (arg: int) {
      let Test5 = 20;
      Test2 + Test3 + Test5 + arg
  };
  Test4(10)
};
range x from 1 to Test1(10) step 1
| count
