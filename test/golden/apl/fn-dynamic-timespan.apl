// expect: timespans inside dynamic values are timespan text (as Kusto), datetimes ISO text; a[0] reads back the text -> [["01:00:00","01:30:00"],{"t":"1.00:00:01","d":"2024-05-01T00:00:00Z"},"01:00:00","[\"01:00:00\",\"01:30:00\"]"]
print a = pack_array(1h, 90m), b = bag_pack("t", 1d + 1s, "d", datetime(2024-05-01)) | extend c = a[0], s = tostring(a)
