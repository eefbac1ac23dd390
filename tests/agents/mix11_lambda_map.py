# value: {"max":22,"mean":11.0,"min":-3}
# stdout: ""
# effects: []
# calls: [["get_weather",{"city":"Lima"}],["get_weather",{"city":"Oslo"}],["get_weather",{"city":"Paris"}]]
# Map a lambda over cities (a tool call inside a lambda).
temps = list(map(lambda c: get_weather(city=c)["temp_c"], ["Lima", "Oslo", "Paris"]))
result = {"max": max(temps), "min": min(temps), "mean": sum(temps) / len(temps)}
