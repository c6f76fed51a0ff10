// expect: view vs-2019, preserve true (Kusto nests the bag under "Query Parameters"; APL returns it flat as Axiom documents, docs/apl.md, so the function reads params[param]) (source: https://learn.microsoft.com/kusto/query/parse-urlquery-function)
let getQueryParamValue = (querystring: string, param: string) {
    let params = parse_urlquery(querystring);
    tostring(params[param])
};
print UrlQuery = 'view=vs-2019&preserve-view=true'
| extend view = getQueryParamValue(UrlQuery, 'view')
| extend preserve = getQueryParamValue(UrlQuery, 'preserve-view')
