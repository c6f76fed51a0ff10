// expect: https://www.bing.com/ (source: https://learn.microsoft.com/kusto/query/url-decode-function, the example)
let url = @'https%3a%2f%2fwww.bing.com%2f';
print original = url, decoded = url_decode(url)
