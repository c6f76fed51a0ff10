// != keeps rows where the field is null; raw rows come newest first
ds | where city != "Paris" | project _time, city, method
