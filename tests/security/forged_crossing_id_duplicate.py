# expect: violation
# Threads' answers find their thread by crossing id, so an id used twice
# could hand one thread another's answer: send crossing 1 twice (the second
# while the first may still be in flight) and the host ends the child.
import os, time
req = b'{"tool":"echo","args":{"value":1}}'
frame = b'c' + (16 + len(req)).to_bytes(4, 'little') + (1).to_bytes(8, 'little') + bytes(8) + req
os.write(3, frame + frame)
time.sleep(5)
