# expect: ok
# value: ["2024-02-29T00:30:00+00:00", true, "Wednesday 28 February 2024", 7200]
# datetime arithmetic and formatting.
from datetime import datetime, date, timedelta, timezone
t = datetime(2024, 2, 28, 23, 30, tzinfo=timezone.utc)
result = [(t + timedelta(hours=1)).isoformat(), date(2024, 3, 1) - date(2024, 2, 1) == timedelta(days=29), t.strftime("%A %d %B %Y"), datetime.fromisoformat("2024-05-06T07:08:09+02:00").utcoffset().seconds]
