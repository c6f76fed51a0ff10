// expect: sumif_day_of_birth 32; list_name ["George","Ringo"] (named explicitly: Quarry names an unnamed make_list_if as Axiom does) (source: https://learn.microsoft.com/kusto/query/sumif-aggregation-function, https://learn.microsoft.com/kusto/query/make-list-if-aggregation-function)
let T = datatable(name:string, day_of_birth:long)
[
   "John", 9,
   "Paul", 18,
   "George", 25,
   "Ringo", 7
];
T
| summarize sumif(day_of_birth, strlen(name) > 4), list_name = make_list_if(name, strlen(name) > 4)
