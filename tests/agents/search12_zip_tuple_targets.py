# value: ["Tokyo","Lima"]
# stdout: ""
# effects: []
# calls: [["get_weather",{"city":"Lima"}],["get_weather",{"city":"Oslo"}],["get_weather",{"city":"Paris"}],["get_weather",{"city":"Tokyo"}]]
# Fetch weather for paired cities and report the warmer of each pair.
left = ["Paris", "Lima"]
right = ["Tokyo", "Oslo"]
winners = []
for a, b in zip(left, right):
    wa = get_weather(city=a)
    wb = get_weather(city=b)
    winners.append(a if wa["temp_c"] >= wb["temp_c"] else b)
result = winners
