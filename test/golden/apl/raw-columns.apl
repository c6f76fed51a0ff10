ds | take 2
