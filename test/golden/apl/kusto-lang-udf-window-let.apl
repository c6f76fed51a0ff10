// Kusto: row_cumsum page, first example (cumulative sum of the even numbers: cs 2, 6, 12, 20, 30), the
// window call inside a scalar user-defined function whose body has its own lets (user-defined functions:
// "Any number of let statements, whose scope is that of the function body").
// https://learn.microsoft.com/kusto/query/row-cumsum-function
let EvenSum = (v: long) {
  let term = v;
  let zero = 0;
  row_cumsum(term + zero)
};
datatable (a:long) [
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10
]
| where a%2==0
| serialize cs=EvenSum(a)
