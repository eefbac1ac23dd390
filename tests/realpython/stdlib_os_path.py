# expect: ok
# value: ["a/b/c.txt", ["x/y.tar", ".gz"], "r", "a/c", "/a/b", "/"]
# os.path string operations.
import os.path
result = [os.path.join("a", "b", "c.txt"), os.path.splitext("x/y.tar.gz"), os.path.basename("/p/q/r"), os.path.normpath("a//b/../c"), os.path.commonpath(["/a/b/c", "/a/b/d"]), os.sep]
