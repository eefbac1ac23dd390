# value: {"Canberra":"rain","Lima":"sunny","Oslo":"snow","Paris":"cloudy","Tokyo":"sunny"}
# stdout: ""
# effects: []
# calls: [["get_weather",{"city":"Canberra"}],["get_weather",{"city":"Lima"}],["get_weather",{"city":"Oslo"}],["get_weather",{"city":"Paris"}],["get_weather",{"city":"Tokyo"}]]
# Weather for every city as a dict comprehension.
result = {c: get_weather(city=c)["condition"] for c in ["Paris", "Tokyo", "Lima", "Oslo", "Canberra"]}
