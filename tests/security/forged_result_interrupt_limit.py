# expect: violation
# deadline: 30s
# A hand-written result frame reporting that the host stopped the program
# for a limit (interrupt reason 3) when the program made no tool call at
# all: the host accepts only an interrupt it sent.
import os, time
response = b'{"error":"Interrupt: a host limit was exceeded","kind":"interrupt","line":1,"traceback":"","transformed":""}'
head = (3).to_bytes(4, 'little') + len(response).to_bytes(4, 'little') + bytes(8)
os.write(3, b'z' + (len(head) + len(response)).to_bytes(4, 'little') + head + response)
time.sleep(5)
