# value: {"acme":123.45,"install":"pip install acme-cli","latest":"1.3.0","open":3,"paris":"cloudy"}
# stdout: ""
# effects: []
# calls: [["get_stock_price",{"symbol":"ACME"}],["get_weather",{"city":"Paris"}],["list_issues",{"state":"open"}],["read_file",{"path":"/docs/README.md"}],["read_file",{"path":"/docs/changelog.md"}]]
# Gather context from several sources before answering.
readme = read_file(path="/docs/README.md")
changelog = read_file(path="/docs/changelog.md")
open_issues = list_issues(state="open")
weather = get_weather(city="Paris")
price = get_stock_price(symbol="ACME")
result = {
    "install": [l for l in readme.splitlines() if l.startswith("pip")][0],
    "latest": changelog.splitlines()[0].lstrip("# "),
    "open": len(open_issues["issues"]),
    "paris": weather["condition"],
    "acme": price["price"],
}
