# expect: ok
# value: ["2024-07-01T06:00:00-04:00", 19, 7200.0]
# zoneinfo: converting between time zones with the system database.
from datetime import datetime
from zoneinfo import ZoneInfo
t = datetime(2024, 7, 1, 12, 0, tzinfo=ZoneInfo("Europe/Paris"))
result = [t.astimezone(ZoneInfo("America/New_York")).isoformat(), t.astimezone(ZoneInfo("Asia/Tokyo")).hour, t.utcoffset().total_seconds()]
