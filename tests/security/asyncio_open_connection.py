# expect: violation
# The async way to the network: asyncio.open_connection to loopback, from a
# program with top-level await. The loop's own socketpair is allowed; the
# TCP socket it then needs is not.
import asyncio
reader, writer = await asyncio.open_connection('127.0.0.1', 22)
result = 1
