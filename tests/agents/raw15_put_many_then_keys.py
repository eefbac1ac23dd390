# value: ["weather:lima","weather:paris","weather:tokyo"]
# stdout: ""
# effects: [["kv_put",{"key":"weather:paris","value":{"city":"Paris","condition":"cloudy","temp_c":14}}],["kv_put",{"key":"weather:tokyo","value":{"city":"Tokyo","condition":"sunny","temp_c":19}}],["kv_put",{"key":"weather:lima","value":{"city":"Lima","condition":"sunny","temp_c":22}}]]
# calls: [["get_weather",{"city":"Lima"}],["get_weather",{"city":"Paris"}],["get_weather",{"city":"Tokyo"}],["kv_keys",{"prefix":"weather:"}],["kv_put",{"key":"weather:lima","value":{"city":"Lima","condition":"sunny","temp_c":22}}],["kv_put",{"key":"weather:paris","value":{"city":"Paris","condition":"cloudy","temp_c":14}}],["kv_put",{"key":"weather:tokyo","value":{"city":"Tokyo","condition":"sunny","temp_c":19}}]]
# Cache the weather of several cities, then list the cache keys.
cities = ["Paris", "Tokyo", "Lima"]
for city in cities:
    w = get_weather(city=city)
    kv_put(key=f"weather:{city.lower()}", value=w)
result = kv_keys(prefix="weather:")
