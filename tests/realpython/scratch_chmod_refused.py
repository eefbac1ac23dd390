# expect: ok
# isolation: sandbox
# value: ["PermissionError", "PermissionError", "copied"]
# A scratch file's mode stays the kernel's default: chmod (and shutil.copy,
# which copies the mode) raises a catchable PermissionError; copyfile works.
import os, shutil
with open("a.txt", "w") as f:
    f.write("a")
out = []
try:
    os.chmod("a.txt", 0o600)
except PermissionError as e:
    out.append(type(e).__name__)
try:
    shutil.copy("a.txt", "b.txt")
except PermissionError as e:
    out.append(type(e).__name__)
shutil.copyfile("a.txt", "c.txt")
out.append("copied" if open("c.txt").read() == "a" else "lost")
result = out
