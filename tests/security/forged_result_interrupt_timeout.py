# expect: violation
# deadline: 30s
# A hand-written result frame reporting a timeout (interrupt reason 1) at
# once, long before the 2 s deadline: the guest's own timer never fires
# before the host's deadline, so the claim can only be forged.
import os, time
response = b'{"error":"Interrupt: the execution exceeded its deadline","kind":"interrupt","line":1,"traceback":"","transformed":""}'
head = (1).to_bytes(4, 'little') + len(response).to_bytes(4, 'little') + bytes(8)
os.write(3, b'z' + (len(head) + len(response)).to_bytes(4, 'little') + head + response)
time.sleep(5)
