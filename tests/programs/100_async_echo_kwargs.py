# value: {"name": "x", "n": [1, 2]}
import asyncio

async def ask(name):
    return await echo(name=name, n=[1, 2])

result = asyncio.run(ask("x"))
