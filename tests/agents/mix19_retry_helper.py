# value: "Revenue grew 12 percent to 4"
# stdout: ""
# effects: []
# calls: [["fetch",{"timeout":12,"url":"https://slow.example.com/report"}],["fetch",{"timeout":4,"url":"https://slow.example.com/report"}],["fetch",{"timeout":8,"url":"https://slow.example.com/report"}]]
# A generic retry helper with backoff bookkeeping (no real sleeping).
def with_retries(fn, attempts=3):
    last = None
    for i in range(attempts):
        try:
            return fn(i)
        except RuntimeError as e:
            last = e
    raise last

page = with_retries(lambda i: fetch(url="https://slow.example.com/report", timeout=4 * (i + 1)))
result = page["text"].split(".")[0]
