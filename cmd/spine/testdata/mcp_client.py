"""Drives `spine mcp` with the official MCP Python SDK, as an agent would.

    mcp_client.py stdio COMMAND ARG...    spawns the server
    mcp_client.py http URL                connects to a streamable HTTP server

Lists the tools, calls run_python twice (a program that works and one that
raises) and prints one JSON object with what came back; the Go test checks
it. The SDK itself validates the structured content against the tool's
outputSchema.
"""

import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

PROGRAM = "print('hi')\nresult = {'x': lookup(key=inputs['k']), 'n': len(inputs)}"


async def exercise(read, write):
    async with ClientSession(read, write) as session:
        await session.initialize()
        listed = await session.list_tools()
        ok = await session.call_tool("run_python", {"code": PROGRAM, "inputs": {"k": 6}})
        failed = await session.call_tool("run_python", {"code": "x = 1\nraise KeyError('k')"})
        return {
            "tools": [t.name for t in listed.tools],
            "description": listed.tools[0].description,
            "ok": {
                "text": ok.content[0].text,
                "is_error": ok.is_error,
                "status": ok.structured_content["status"],
                "calls": [c["tool"] for c in ok.structured_content["calls"]],
            },
            "failed": {
                "text": failed.content[0].text,
                "is_error": failed.is_error,
                "status": failed.structured_content["status"],
            },
        }


async def main():
    mode, target = sys.argv[1], sys.argv[2:]
    if mode == "stdio":
        params = StdioServerParameters(command=target[0], args=target[1:], env=None)
        async with stdio_client(params) as (read, write):
            report = await exercise(read, write)
    else:
        async with streamable_http_client(target[0]) as streams:
            report = await exercise(streams[0], streams[1])
    print(json.dumps(report))


anyio.run(main)
