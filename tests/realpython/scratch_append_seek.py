# expect: ok
# value: [4, "a\n"]
# isolation: sandbox
# Append, seek and truncate in the scratch directory.
with open("log.txt", "w") as f:
    f.write("a\n")
with open("log.txt", "a") as f:
    f.write("b\n")
with open("log.txt", "r+") as f:
    f.seek(0, 2)
    end = f.tell()
    f.truncate(2)
result = [end, open("log.txt").read()]
