# value: [19,88.1,22]
# stdout: ""
# effects: []
# calls: [["get_stock_price",{"symbol":"GLOBEX"}],["get_weather",{"city":"Lima"}],["get_weather",{"city":"Tokyo"}]]
# Plan-and-execute: a plan as data, executed step by step with a dispatch table.
tools = {"weather": lambda arg: get_weather(city=arg)["temp_c"],
         "price": lambda arg: get_stock_price(symbol=arg)["price"]}
plan = [("weather", "Tokyo"), ("price", "GLOBEX"), ("weather", "Lima")]
results = [tools[kind](arg) for kind, arg in plan]
result = results
