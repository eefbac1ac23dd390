# value: ["INITECH@15.75","ACME@123.45"]
# stdout: ""
# effects: []
# calls: [["get_stock_price",{"symbol":"ACME"}],["get_stock_price",{"symbol":"INITECH"}]]
from dataclasses import dataclass

# Typed records built from tool results.
@dataclass
class Quote:
    symbol: str
    price: float

    def label(self):
        return f"{self.symbol}@{self.price}"

quotes = [Quote(**get_stock_price(symbol=s)) for s in ["ACME", "INITECH"]]
result = [q.label() for q in sorted(quotes, key=lambda q: q.price)]
