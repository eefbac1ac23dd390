# expect: ok
# value: null
# stdout: "a-b!\nto stdout\nraw write\n0 1 2\n"
# print with sep/end/file.
import sys
print("a", "b", sep="-", end="!\n")
print("to", "stdout", file=sys.stdout)
sys.stdout.write("raw write\n")
print(*range(3))
result = None
