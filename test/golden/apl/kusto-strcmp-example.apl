// expect: ABC/ABC 0, abc/ABC 1, ABC/abc -1, abcde/abc 1 (source: https://learn.microsoft.com/kusto/query/strcmp-function, the page's example)
datatable(string1:string, string2:string) [
    "ABC","ABC",
    "abc","ABC",
    "ABC","abc",
    "abcde","abc"
]
| extend result = strcmp(string1,string2)
