// expect: Rain = Not rain event, Rain event, Not rain event, Not rain event, Not rain event (source: https://learn.microsoft.com/kusto/query/iff-function, "Classify data using iff()"; the five StormEvents rows the page prints are a datatable here)
datatable(State: string, EventId: long, EventType: string)
[
    "ATLANTIC SOUTH", 61032, "Waterspout",
    "FLORIDA", 60904, "Heavy Rain",
    "FLORIDA", 60913, "Tornado",
    "GEORGIA", 64588, "Thunderstorm Wind",
    "MISSISSIPPI", 68796, "Thunderstorm Wind"
]
| extend Rain = iff((EventType in ("Heavy Rain", "Flash Flood", "Flood")), "Rain event", "Not rain event")
| project State, EventId, EventType, Rain
