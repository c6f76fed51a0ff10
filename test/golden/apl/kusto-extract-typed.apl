// Kusto: https://learn.microsoft.com/kusto/query/extract-function (both examples) -- months 12, 7, 3 as int; the user name JohnDoe
let Dates = datatable(DateString: string)
[
    "15-12-2024",
    "21-07-2023",
    "10-03-2022"
];
let Text = "User: JohnDoe, Email: johndoe@example.com, Age: 29";
Dates
| extend Month = extract(@"-(\d{2})-", 1, DateString, typeof(int)), UserName = extract("User: ([^,]+)", 1, Text)
| project DateString, Month, UserName
