# value: ["Paris: 14C","Oslo: -3C","Lima: 22C"]
# stdout: "Paris: 14C\nOslo: -3C\nLima: 22C\n"
# effects: []
# calls: [["get_weather",{"city":"Lima"}],["get_weather",{"city":"Oslo"}],["get_weather",{"city":"Paris"}]]
# A helper that formats one city's weather, called in a loop that prints and appends.
def describe(city, unit="C"):
    w = get_weather(city=city)
    return f"{city}: {w['temp_c']}{unit}"

lines = []
for city in ["Paris", "Oslo", "Lima"]:
    line = describe(city)
    print(line)
    lines.append(line)
result = lines
