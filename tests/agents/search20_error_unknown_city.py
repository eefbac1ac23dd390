# value: {"Atlantis":"error: unknown city: Atlantis","Oslo":"-3C snow","Paris":"14C cloudy"}
# stdout: ""
# effects: []
# calls: [["get_weather",{"city":"Atlantis"}],["get_weather",{"city":"Oslo"}],["get_weather",{"city":"Paris"}]]
# Weather for a list that includes an unknown city; keep going on errors.
report = {}
for city in ["Paris", "Atlantis", "Oslo"]:
    try:
        w = get_weather(city=city)
        report[city] = f"{w['temp_c']}C {w['condition']}"
    except RuntimeError as e:
        report[city] = f"error: {e}"
result = report
