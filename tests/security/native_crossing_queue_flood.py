# expect: ok
# native: auto
# value: ["pending"]
# The program talks to the native crossing itself: it hands over eight units
# whose compilations take seconds each and asks for all of them, then ends.
# The host hands only the execution's share to the compiler (the rest are
# "pending" inside the execution, never in the engine's queue), and cancels
# every one of them when the execution ends.
import json
import _spine


def unit(k):
    lines = [f"def slow_{k}(x: int) -> int:"]
    lines += [f"    x = (x * {31 + i % 7} + {i + k}) % 1000003" for i in range(200)]
    return {"name": f"slow_{k}", "source": "\n".join(lines + ["    return x", ""])}


def ask(request):
    return json.loads(_spine.native(json.dumps(request)))


started = ask({"op": "start", "units": [unit(k) for k in range(8)]})
statuses = [u["status"] for k in range(8) for u in ask({"op": "compile", "name": f"slow_{k}"})["units"]]
result = sorted(set(statuses))
