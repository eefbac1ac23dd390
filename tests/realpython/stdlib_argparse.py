# expect: ok
# value: {"files": ["a.txt", "b.txt"], "n": 3, "verbose": true}
# argparse over an explicit argument list.
import argparse
p = argparse.ArgumentParser(prog="tool")
p.add_argument("files", nargs="+")
p.add_argument("-n", type=int, default=1)
p.add_argument("--verbose", action="store_true")
ns = p.parse_args(["a.txt", "b.txt", "-n", "3", "--verbose"])
result = vars(ns)
