// expect: dot products 12, 48, 108 (source: https://learn.microsoft.com/kusto/query/series-dot-product-function)
range x from 1 to 3 step 1
| extend y = x * 2
| extend z = y * 2
| project s1 = pack_array(x,y,z), s2 = pack_array(z, y, x)
| extend s1_dot_product_s2 = series_dot_product(s1, s2)
