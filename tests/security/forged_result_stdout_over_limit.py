# expect: violation
# deadline: 30s
# A hand-written result frame carrying 2 MiB of "captured" stdout where the
# limit is 1 MiB: bootstrap truncates what it captures, so only a forger
# sends more, and the host checks the captured output itself.
import os, time
response = b'{"value":1,"transformed":""}'
stdout = b'o' * (2 << 20)
head = (0).to_bytes(4, 'little') + len(response).to_bytes(4, 'little') + len(stdout).to_bytes(4, 'little') + bytes(4)
os.write(3, b'z' + (len(head) + len(response) + len(stdout)).to_bytes(4, 'little') + head + response + stdout)
time.sleep(5)
