// expect: places within 18 km of Seattle -> Seattle, Kirkland, Redmond (source: https://learn.microsoft.com/kusto/query/geo-point-in-circle-function, the page's example)
datatable(longitude:real, latitude:real, place:string)
[
    real(-122.317404), 47.609119, 'Seattle',
    real(-123.497688), 47.458098, 'Olympic National Forest',
    real(-122.201741), 47.677084, 'Kirkland',
    real(-122.443663), 47.247092, 'Tacoma',
    real(-122.121975), 47.671345, 'Redmond',
]
| where geo_point_in_circle(longitude, latitude, -122.317404, 47.609119, 18000)
| project place
