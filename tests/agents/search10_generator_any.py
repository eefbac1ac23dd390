# value: {"rainy_somewhere":true}
# stdout: ""
# effects: []
# calls: [["get_weather",{"city":"Canberra"}],["get_weather",{"city":"Paris"}],["get_weather",{"city":"Tokyo"}]]
# Is any of the capitals rainy right now?
capitals = ["Paris", "Tokyo", "Canberra"]
rainy = any(get_weather(city=c)["condition"] == "rain" for c in capitals)
result = {"rainy_somewhere": rainy}
