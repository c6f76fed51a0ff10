// expect: log(5) 1.6094379124341003; gamma(5) 24; degrees 45, 270, 0; radians 1.5707963267949, 3.14159265358979, 6.28318530717959 (the page prints 15 significant digits: compared at 13 decimals); atan2 0.785398163397448, 3.14159265358979, -1.5707963267949 (13 decimals) (source: https://learn.microsoft.com/kusto/query/log-function, https://learn.microsoft.com/kusto/query/gamma-function, https://learn.microsoft.com/kusto/query/degrees-function, https://learn.microsoft.com/kusto/query/radians-function, https://learn.microsoft.com/kusto/query/atan2-function)
print result = log(5), g = gamma(5), degrees0 = degrees(pi()/4), degrees1 = degrees(pi()*1.5), degrees2 = degrees(0),
  radians0 = round(radians(90), 13), radians1 = round(radians(180), 13), radians2 = round(radians(360), 13)
| extend atan2_0 = round(atan2(1,1), 13)
| extend atan2_1 = round(atan2(0,-1), 13)
| extend atan2_2 = round(atan2(-1,0), 13)
