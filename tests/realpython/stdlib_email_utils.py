# expect: ok
# value: [["Ann Lee", "ann@example.com"], "Bob <bob@example.com>", "2024-10-01T10:00:00+02:00"]
# email.utils: addresses and dates.
from email.utils import parseaddr, formataddr, parsedate_to_datetime
result = [parseaddr("Ann Lee <ann@example.com>"), formataddr(("Bob", "bob@example.com")), parsedate_to_datetime("Tue, 01 Oct 2024 10:00:00 +0200").isoformat()]
