# expect: ok
# value: [true, [3, 29], "February 2024", 0]
# calendar.
import calendar
result = [calendar.isleap(2024), calendar.monthrange(2024, 2), calendar.month(2024, 2).splitlines()[0].strip(), calendar.weekday(2024, 1, 1)]
