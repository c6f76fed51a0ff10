// expect: 10.1.2.3 true, 192.168.1.5 true, 123.1.11.21 false, 1.1.1.1 false (source: https://learn.microsoft.com/kusto/query/ipv4-is-in-any-range-function)
let LocalNetworks=dynamic([
    "192.168.1.1/16",
    "127.0.0.1/8",
    "10.0.0.1/8"
]);
let IPs=datatable(IP:string) [
    "10.1.2.3",
    "192.168.1.5",
    "123.1.11.21",
    "1.1.1.1"
];
IPs
| extend IsLocal=ipv4_is_in_any_range(IP, LocalNetworks)
