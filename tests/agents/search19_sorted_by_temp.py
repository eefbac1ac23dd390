# inputs: {"cities":["Oslo","Lima","Paris","Tokyo"]}
# value: ["Lima","Tokyo","Paris","Oslo"]
# stdout: ""
# effects: []
# calls: [["get_weather",{"city":"Lima"}],["get_weather",{"city":"Oslo"}],["get_weather",{"city":"Paris"}],["get_weather",{"city":"Tokyo"}]]
# Rank cities by temperature.
cities = inputs["cities"]
ranked = sorted(cities, key=lambda c: get_weather(city=c)["temp_c"], reverse=True)
result = ranked
