# expect: limit
# deadline: 120s
# host-rss-mib: 64
# Prints up to the 1 MiB stdout cap (and as much to stderr), then makes
# calls with large arguments. The captured output is part of the
# execution's host memory budget (set aside when it starts): output and
# trace together stay within it, and the flood of calls ends with `limit`.
import sys

line = "o" * 1023
for _ in range(1100):
    print(line)
    sys.stderr.write(line + "\n")
big = "a" * 500000
while True:
    try:
        echo(x=big)
    except BaseException:
        pass
