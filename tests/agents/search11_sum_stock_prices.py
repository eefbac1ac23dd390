# value: 2305.0
# stdout: ""
# effects: []
# calls: [["get_stock_price",{"symbol":"ACME"}],["get_stock_price",{"symbol":"GLOBEX"}],["get_stock_price",{"symbol":"INITECH"}]]
# Value a small portfolio.
holdings = {"ACME": 10, "GLOBEX": 5, "INITECH": 40}
total = sum(get_stock_price(symbol=s)["price"] * n for s, n in holdings.items())
result = round(total, 2)
