# expect: ok
# value: ["name,qty\r\n\"a, b\",1\r\n\"say \"\"hi\"\"\",2\r\n", [{"name": "a, b", "qty": "1"}, {"name": "say \"hi\"", "qty": "2"}]]
# csv reading and writing in memory.
import csv, io
out = io.StringIO()
w = csv.DictWriter(out, fieldnames=["name", "qty"])
w.writeheader()
w.writerows([{"name": "a, b", "qty": 1}, {"name": 'say "hi"', "qty": 2}])
text = out.getvalue()
result = [text, list(csv.DictReader(io.StringIO(text)))]
