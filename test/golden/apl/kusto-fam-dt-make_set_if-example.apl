// expect: set_name ["George","Ringo"] (sorted here: the page says the order is undefined; named explicitly) (source: https://learn.microsoft.com/kusto/query/make-set-if-aggregation-function)
let T = datatable(name:string, day_of_birth:long)
[
   "John", 9,
   "Paul", 18,
   "George", 25,
   "Ringo", 7
];
T
| summarize set_name = make_set_if(name, strlen(name) > 4)
| project set_name = array_sort_asc(set_name)
