ds | extend kb = bytes / 1000.0, slow = dur > 100, half = bytes / 2 | project method, kb, slow, half | take 3
