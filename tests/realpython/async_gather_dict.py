# expect: ok
# value: {"a": "a", "b": "b", "c": "c"}
# tools: echo
# Gathering calls keyed by name.
import asyncio
names = ["a", "b", "c"]
values = await asyncio.gather(*[echo(name=n) for n in names])
result = {n: v["name"] for n, v in zip(names, values)}
