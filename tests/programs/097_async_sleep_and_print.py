# value: "done"
# stdout: "start\nend\n"
import asyncio
print("start")
await asyncio.sleep(0.001)
print("end")
result = "done"
