// A tabular function called with too many arguments is apl_wrong_arity (400).
let MyFilter = (T:(x:long), v:long) { T | where x >= v };
MyFilter((range x from 1 to 10 step 1), 9, 10)
