# expect: ok
# value: ["first line", "second line"]
# isolation: sandbox
# The working directory is the execution's scratch directory: write and read there.
with open("notes.txt", "w") as f:
    f.write("first line\nsecond line\n")
with open("notes.txt") as f:
    result = f.read().splitlines()
