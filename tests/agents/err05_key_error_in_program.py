# error: KeyError: 'humidity'
# stdout: ""
# effects: []
# calls: [["get_weather",{"city":"Paris"}]]
# The agent assumes a field that the tool does not return.
w = get_weather(city="Paris")
result = w["humidity"]
