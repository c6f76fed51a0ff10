// expect: print_0 {"Level":"Information","ProcessID":1234,"Data":{"url":"www.bing.com"}}; MyBag {"Dest":100,"Text":"Hi"} 100 Hi, {"Dest":200,"Text":"Hello"} 200 Hello, {"Dest":300,"Text":"Hey"} 300 Hey (source: https://learn.microsoft.com/kusto/query/pack-function, examples 1 and 2)
let bags = datatable (
    Source: int,
    Destination: int,
    Message: string
) [
    1234, 100, "Hi",
    4567, 200, "Hello",
    1212, 300, "Hey"
]
| extend MyBag=bag_pack("Dest", Destination, "Text", Message)
| project-away Source, Destination, Message
| extend MyBag_Dest=MyBag.Dest, MyBag_Text=MyBag.Text;
bags | extend print_0 = bag_pack("Level", "Information", "ProcessID", 1234, "Data", bag_pack("url", "www.bing.com")) | order by tolong(MyBag_Dest) asc
