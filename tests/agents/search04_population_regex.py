# value: {"biggest":"Tokyo","populations":{"Canberra":467194,"Lima":10092000,"Paris":2102650,"Tokyo":14094034}}
# stdout: ""
# effects: []
# calls: [["fetch",{"url":"https://en.wikipedia.org/wiki/Canberra"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Lima"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Paris"}],["fetch",{"url":"https://en.wikipedia.org/wiki/Tokyo"}]]
import re

# Compare city populations by scraping their pages.
populations = {}
for city in ["Paris", "Tokyo", "Lima", "Canberra"]:
    text = fetch(url=f"https://en.wikipedia.org/wiki/{city}")["text"]
    m = re.search(r"Population: (\d+)", text)
    populations[city] = int(m.group(1)) if m else None
biggest = max(populations, key=populations.get)
result = {"biggest": biggest, "populations": populations}
