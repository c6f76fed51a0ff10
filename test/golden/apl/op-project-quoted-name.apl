// expect: ['name'] equals the bare name -> method, status of the PUT row ["PUT","301"]
ds | where ['method'] == "PUT" | project ['method'], ["status"]
