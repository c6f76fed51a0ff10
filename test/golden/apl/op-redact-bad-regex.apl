// expect: an invalid pattern is rejected before execution -> error invalid apl_invalid_regex
ds | redact @"(" | count
