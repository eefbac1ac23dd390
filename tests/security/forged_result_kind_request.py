# expect: violation
# deadline: 30s
# A hand-written error envelope whose kind says "request": the host used to
# believe it and blame its own caller (ErrBadRequest, exit 2). Only the host
# judges a request; a guest may claim only program, result_limit or interrupt.
import os, time
response = b'{"error":"ValueError: malformed request","kind":"request","line":0,"traceback":"","transformed":""}'
head = (0).to_bytes(4, 'little') + len(response).to_bytes(4, 'little') + bytes(8)
os.write(3, b'z' + (len(head) + len(response)).to_bytes(4, 'little') + head + response)
time.sleep(5)
