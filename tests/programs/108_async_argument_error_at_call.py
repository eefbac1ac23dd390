# value: "TypeError"
async def main():
    try:
        lookup(key=object())
    except TypeError as error:
        return type(error).__name__

result = await main()
