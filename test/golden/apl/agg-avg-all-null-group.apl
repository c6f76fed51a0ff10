// expect: group with only null msg lengths -> avg null: São Paulo null; others: null-city (16,16)=16; Berlin (17,13)=15; Paris (13,12,5)=10
ds | summarize a = avg(strlen(msg)) by city | sort by city asc
