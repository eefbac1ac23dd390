# expect: ok
# value: "ceb2"
# isolation: sandbox
# Writing beta to a file in the scratch directory.
with open("beta.txt", "w") as f:
    f.write("\u03b2")
result = open("beta.txt", "rb").read().hex()
