// expect: redactGroups: only the capture group is masked (5 chars of alice); id=17 untouched -> ["user=***** id=17"]
print s = "user=alice id=17" | redact redactGroups=true @"user=(\w+)"
