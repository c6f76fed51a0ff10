// expect: the cumulative sum's last element of [0,1,2,3,4] is 10 (source: https://learn.microsoft.com/kusto/query/series-iir-function)
let vector_sum=(x: dynamic) {
    let y=array_length(x) - 1;
    todouble(series_iir(x, dynamic([1]), dynamic([1, -1]))[y])
};
print d=dynamic([0, 1, 2, 3, 4])
| extend dd=vector_sum(d)
