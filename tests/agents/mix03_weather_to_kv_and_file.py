# value: {"cached":["Oslo","Paris","Tokyo"],"file":{"coldest":"Oslo"}}
# stdout: ""
# effects: [["kv_put",{"key":"weather:latest","value":{"Oslo":{"city":"Oslo","condition":"snow","temp_c":-3},"Paris":{"city":"Paris","condition":"cloudy","temp_c":14},"Tokyo":{"city":"Tokyo","condition":"sunny","temp_c":19}}}],["write_file",{"content":"{\"coldest\": \"Oslo\"}","path":"/reports/weather.json"}]]
# calls: [["get_weather",{"city":"Oslo"}],["get_weather",{"city":"Paris"}],["get_weather",{"city":"Tokyo"}],["kv_get",{"key":"weather:latest"}],["kv_put",{"key":"weather:latest","value":{"Oslo":{"city":"Oslo","condition":"snow","temp_c":-3},"Paris":{"city":"Paris","condition":"cloudy","temp_c":14},"Tokyo":{"city":"Tokyo","condition":"sunny","temp_c":19}}}],["read_file",{"path":"/reports/weather.json"}],["write_file",{"content":"{\"coldest\": \"Oslo\"}","path":"/reports/weather.json"}]]
import json

# Collect weather, cache it, and write a summary file.
cities = ["Paris", "Tokyo", "Oslo"]
data = {c: get_weather(city=c) for c in cities}
kv_put(key="weather:latest", value=data)
coldest = min(data, key=lambda c: data[c]["temp_c"])
write_file(path="/reports/weather.json", content=json.dumps({"coldest": coldest}))
result = {"cached": sorted(kv_get(key="weather:latest")), "file": json.loads(read_file(path="/reports/weather.json"))}
