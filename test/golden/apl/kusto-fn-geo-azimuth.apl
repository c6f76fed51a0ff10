// expect: 3.05459939796449 rad = 175.015653606568° (compared to 14 and 11 decimals); equal points -> null (source: https://learn.microsoft.com/kusto/query/geo-azimuth-function, the page's example)
print azimuth_in_radians = round(geo_azimuth(5, 10, 10, -40), 14), azimuth_in_degrees = round(degrees(geo_azimuth(5, 10, 10, -40)), 11), is_null = isnull(geo_azimuth(5, 10, 5, 10))
