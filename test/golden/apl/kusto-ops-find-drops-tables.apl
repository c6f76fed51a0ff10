// expect: Other has no column the predicate reads, so it is left out (its row would match isempty(Level) in a union): the two Error rows only (source: https://learn.microsoft.com/kusto/query/find-operator "Source tables that don't contain any column used by the predicate evaluation will be filtered out")
let EventsTable1 = datatable(Session_Id: string, Level: string, EventText: string, Version: string)
[
  "acbd207d-51aa-4df7-bfa7-be70eb68f04e", "Information", "Some Text1", "v1.0.0",
  "acbd207d-51aa-4df7-bfa7-be70eb68f04e", "Error", "Some Text2", "v1.0.0",
  "28b8e46e-3c31-43cf-83cb-48921c3986fc", "Error", "Some Text3", "v1.0.1",
  "8f057b11-3281-45c3-a856-05ebb18a3c59", "Information", "Some Text4", "v1.1.0"
];
let EventsTable2 = datatable(Session_Id: string, Level: string, EventText: string, EventName: string)
[
  "f7d5f95f-f580-4ea6-830b-5776c8d64fdd", "Information", "Some Other Text1", "Event1",
  "acbd207d-51aa-4df7-bfa7-be70eb68f04e", "Information", "Some Other Text2", "Event2",
  "acbd207d-51aa-4df7-bfa7-be70eb68f04e", "Error", "Some Other Text3", "Event3",
  "15eaeab5-8576-4b58-8fc6-478f75d8fee4", "Error", "Some Other Text4", "Event4"
];
let Other = datatable(Unrelated: string)["Some Text9"];
find in (EventsTable1, Other) where isempty(Level) or Level == 'Error'
| order by EventText asc
