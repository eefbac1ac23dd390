# expect: ok
# value: ["{\"d\": {\"__date__\": \"2024-02-29\"}}", 2024]
# json with a custom encoder and object_hook.
import json
from datetime import date
class Enc(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, date):
            return {"__date__": o.isoformat()}
        return super().default(o)
text = json.dumps({"d": date(2024, 2, 29)}, cls=Enc)
back = json.loads(text, object_hook=lambda d: date.fromisoformat(d["__date__"]) if "__date__" in d else d)
result = [text, back["d"].year]
