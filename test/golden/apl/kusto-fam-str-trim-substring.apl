// expect: trim("--", "--https://bing.com--") -> https://bing.com; trim_start("https://", "https://bing.com") -> bing.com; trim_end(".com", "bing.com") -> bing. The pages' other examples (trim(@"[^\w]+", …), trim(@"\s+", …)) read the first argument as a regex; Quarry's trim* take a set of characters (docs/apl.md), so only these three are cases (source: https://learn.microsoft.com/kusto/query/trim-function, https://learn.microsoft.com/kusto/query/trim-start-function, https://learn.microsoft.com/kusto/query/trim-end-function, "Trim specific substring")
let string_to_trim = @"--https://bing.com--";
let substring = "--";
print string_to_trim = string_to_trim, trimmed_string = trim(substring, string_to_trim),
      start_trimmed = trim_start("https://", @"https://bing.com"),
      end_trimmed = trim_end(".com", @"bing.com")
