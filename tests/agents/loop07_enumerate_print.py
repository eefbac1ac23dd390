# value: 3
# stdout: "1. ACME: $123.45\n2. GLOBEX: $88.10\n3. UMBRELLA: $301.20\n"
# effects: []
# calls: [["get_stock_price",{"symbol":"ACME"}],["get_stock_price",{"symbol":"GLOBEX"}],["get_stock_price",{"symbol":"UMBRELLA"}]]
# Print a numbered list of stock prices.
symbols = ["ACME", "GLOBEX", "UMBRELLA"]
for i, s in enumerate(symbols, start=1):
    quote = get_stock_price(symbol=s)
    print(f"{i}. {quote['symbol']}: ${quote['price']:.2f}")
result = len(symbols)
