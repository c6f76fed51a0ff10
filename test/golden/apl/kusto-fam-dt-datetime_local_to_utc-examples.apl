// expect: 2020-02-02 20:02:20 local -> Europe/Paris 19:02:20, America/Chicago 2020-02-03 02:02:20, US/Pacific 2020-02-03 04:02:20; Europe/Brussels on 2022-03-27: Local 01:00 -> UTC 00:00 -> back 01:00 (diff 0), 02:00 (skipped by DST) -> 00:00 -> 01:00 (diff 01:00:00), 03:00 -> 01:00 -> 03:00, 04:00 -> 02:00 -> 04:00; an unknown zone is null (a Quarry extension, docs/apl.md) (source: https://learn.microsoft.com/kusto/query/datetime-local-to-utc-function)
let zones = datatable(local_dt: datetime, tz: string)
[ datetime(2020-02-02 20:02:20), 'US/Pacific',
  datetime(2020-02-02 20:02:20), 'America/Chicago',
  datetime(2020-02-02 20:02:20), 'Europe/Paris',
  datetime(2020-02-02 20:02:20), 'Nowhere/Nothing']
| extend utc_dt = datetime_local_to_utc(local_dt, tz)
| project Local = local_dt, tz, UTC = utc_dt, BackToLocal = datetime(null), diff = timespan(null);
let brussels = range Local from datetime(2022-03-27 01:00:00.0000000) to datetime(2022-03-27 04:00:00.0000000) step 1h
| extend UTC=datetime_local_to_utc(Local, 'Europe/Brussels')
| extend BackToLocal=datetime_utc_to_local(UTC, 'Europe/Brussels')
| extend diff=Local-BackToLocal
| extend tz = 'Europe/Brussels';
union zones, brussels
| project tz, Local, UTC, BackToLocal, diff
| order by tz asc, Local asc
