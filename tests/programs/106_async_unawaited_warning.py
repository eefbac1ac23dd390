# value: "ok"
# stdout: "before\n"
async def main():
    print("before")
    pending = lookup(key=1)
    return "ok"

result = await main()
