# expect: ok
# value: [[{"date": "2024-01-05", "level": "error", "what": "disk"}, {"date": "2024-02-11", "level": "warn", "what": "cpu"}], ["2024", "2024"], "a2 b44"]
# re: named groups, findall, sub with a function.
import re
text = "2024-01-05 error disk; 2024-02-11 warn cpu"
pat = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2}) (?P<level>\w+) (?P<what>\w+)")
result = [[m.groupdict() for m in pat.finditer(text)], re.findall(r"\d{4}", text), re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "a1 b22")]
