# expect: ok
# value: [["a", "1"], ["b", "2"]]
# isolation: sandbox
# A CSV file written and read back in the scratch directory.
import csv
with open("rows.csv", "w", newline="") as f:
    csv.writer(f).writerows([["a", 1], ["b", 2]])
with open("rows.csv", newline="") as f:
    result = list(csv.reader(f))
