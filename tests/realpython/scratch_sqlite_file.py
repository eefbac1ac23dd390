# expect: ok
# value: "opened"
# isolation: sandbox
# sqlite3 may keep a database file in the scratch directory too.
import sqlite3
try:
    sqlite3.connect("data.db").execute("create table t (x)")
    result = "opened"
except Exception as e:
    result = type(e).__name__
