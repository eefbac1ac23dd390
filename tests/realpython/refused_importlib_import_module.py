# expect: ok
# value: [["json", "ok"], ["socket", "refused"], ["subprocess", "refused"], ["decimal", "ok"]]
# isolation: sandbox
# importlib.import_module meets the same refusal.
import importlib
out = []
for name in ["json", "socket", "subprocess", "decimal"]:
    try:
        importlib.import_module(name)
        out.append((name, "ok"))
    except ImportError:
        out.append((name, "refused"))
result = out
