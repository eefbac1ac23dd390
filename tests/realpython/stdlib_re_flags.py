# expect: ok
# value: [["Alpha", "beta", "GAMMA"], true, ["a", "b", "c"]]
# re flags: IGNORECASE, MULTILINE, VERBOSE.
import re
text = "Alpha\nbeta\nGAMMA"
result = [re.findall(r"^[a-z]+$", text, re.I | re.M), bool(re.match(r"""
    \d+   # digits
    \s*   # space
    kg""", "12 kg", re.X)), re.split(r"[,;]\s*", "a, b;c")]
