# expect: violation
# asyncio can start processes: create_subprocess_exec a shell. No process
# may be made (pipes, fork, exec all kill).
import asyncio
proc = await asyncio.create_subprocess_exec('/bin/sh', '-c', 'echo escaped')
result = await proc.communicate()
