# expect: error PermissionError
# Plant a symlink in the scratch directory to a stdlib file Landlock hides
# (ctypes) and read through it: Landlock checks the file the link resolves to.
import os
os.symlink('/usr/lib/python3.11/ctypes/__init__.py', 'link')
result = open('link').read()
