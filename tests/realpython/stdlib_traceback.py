# expect: ok
# value: [["ValueError: deep\n"], "inner"]
# traceback formatting of a caught exception.
import traceback
def inner():
    raise ValueError("deep")
try:
    inner()
except ValueError as e:
    lines = traceback.format_exception_only(type(e), e)
    frames = [f.name for f in traceback.extract_tb(e.__traceback__)]
result = [lines, frames[-1]]
