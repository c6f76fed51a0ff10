// expect: dt 2022-07-11 22:18:48.4678620 -> pacific_dt 2022-07-11 15:18:48.4678620, canberra_dt 2022-07-12 08:18:48.4678620, diff -17:00:00 (the page prints dt = now() as that instant; here it is a literal; Quarry keeps microseconds: .467862) (a Quarry extension, docs/apl.md) (source: https://learn.microsoft.com/kusto/query/datetime-utc-to-local-function)
print dt=datetime(2022-07-11 22:18:48.4678620)
| extend pacific_dt = datetime_utc_to_local(dt, 'US/Pacific'), canberra_dt = datetime_utc_to_local(dt, 'Australia/Canberra')
| extend diff = pacific_dt - canberra_dt
