# value: {"key": "ключ", "text": "héllo 世界 🎉"}
# stdout: "héllo 世界 🎉\n"
r = echo(text="héllo 世界 🎉", key="ключ")
print(r["text"])
result = r
