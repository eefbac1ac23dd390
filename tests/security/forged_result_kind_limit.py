# expect: violation
# deadline: 30s
# A hand-written error envelope claiming the host's tool-call limit (kind
# "limit"): a host limit is the host's to report, from its own count; the
# only limit a guest may claim is its own result's (result_limit).
import os, time
response = b'{"error":"LimitExceeded: tool call limit of 10000 exceeded","kind":"limit","line":0,"traceback":"","transformed":""}'
head = (0).to_bytes(4, 'little') + len(response).to_bytes(4, 'little') + bytes(8)
os.write(3, b'z' + (len(head) + len(response)).to_bytes(4, 'little') + head + response)
time.sleep(5)
