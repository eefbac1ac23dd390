# expect: ok
# value: ["corpus", "spine", [[80, 443], [22]]]
# tomllib parses a TOML document.
import tomllib
doc = """
title = "corpus"
[owner]
name = "spine"
[[servers]]
ip = "10.0.0.1"
ports = [80, 443]
[[servers]]
ip = "10.0.0.2"
ports = [22]
"""
data = tomllib.loads(doc)
result = [data["title"], data["owner"]["name"], [s["ports"] for s in data["servers"]]]
