// expect: "bing.com" → "bing"; "-  Te st1// $" → "-  Te st1"; whitespace → "    Hello, world!" (Kusto's trim_end takes a regex: APL's trim_end_regex; the page's second example uses x without a range: written for x = 1, its table pads the column with spaces) (source: https://learn.microsoft.com/kusto/query/trim-end-function)
let string_to_trim = @"bing.com";
let substring = ".com";
print string_to_trim = string_to_trim, trimmed_string = trim_end_regex(substring,string_to_trim),
    t2 = trim_end_regex(@"[^\w]+", strcat("-  ","Te st",1,@"// $")),
    t3 = trim_end_regex(@"\s+", @"    Hello, world!    ")
