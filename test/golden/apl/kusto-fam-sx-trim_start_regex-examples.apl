// expect: "https://bing.com" → "bing.com"; "-  Te st1// $" → "Te st1// $"; whitespace → "Hello, world!    " (Kusto's trim_start takes a regex: APL's trim_start_regex) (source: https://learn.microsoft.com/kusto/query/trim-start-function)
let string_to_trim = @"https://bing.com";
let substring = "https://";
print string_to_trim = string_to_trim, trimmed_string = trim_start_regex(substring,string_to_trim),
    t2 = trim_start_regex(@"[^\w]+", strcat("-  ","Te st",1,@"// $")),
    t3 = trim_start_regex(@"\s+", @"    Hello, world!    ")
