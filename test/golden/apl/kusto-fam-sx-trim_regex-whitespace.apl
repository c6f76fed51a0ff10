// expect: "Hello, world!" (Kusto's trim takes a regex: APL's trim_regex) (source: https://learn.microsoft.com/kusto/query/trim-function)
let string_to_trim = @"    Hello, world!    ";
let substring = @"\s+";
print
    string_to_trim = string_to_trim,
    trimmed_string = trim_regex(substring, string_to_trim)
