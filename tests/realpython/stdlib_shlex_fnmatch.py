# expect: ok
# value: [["cmd", "--name", "a b", "c d"], "'it'\"'\"'s'", ["a.py", "c.py"], false]
# shlex and fnmatch.
import shlex, fnmatch
result = [shlex.split("cmd --name 'a b' \"c d\""), shlex.quote("it's"), fnmatch.filter(["a.py", "b.txt", "c.py"], "*.py"), fnmatch.fnmatch("Data.CSV", "*.csv")]
