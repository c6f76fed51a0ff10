// sort defaults to desc with nulls last
ds | sort by bytes | project bytes
