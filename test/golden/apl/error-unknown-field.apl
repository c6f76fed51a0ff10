ds | where Method == "GET"
