# expect: ok
# value: ["PST", "PDT", "1:00:00"]
# zoneinfo across a daylight saving change.
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo
tz = ZoneInfo("America/Los_Angeles")
winter = datetime(2024, 1, 15, 9, tzinfo=tz)
summer = datetime(2024, 7, 15, 9, tzinfo=tz)
result = [winter.tzname(), summer.tzname(), str(summer.utcoffset() - winter.utcoffset())]
