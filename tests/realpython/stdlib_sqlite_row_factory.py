# expect: ok
# value: [[{"k": "x", "v": "1"}], "IntegrityError"]
# sqlite3 with Row objects, a transaction and a rollback.
import sqlite3
db = sqlite3.connect(":memory:")
db.row_factory = sqlite3.Row
db.execute("create table kv (k text primary key, v text)")
with db:
    db.execute("insert into kv values ('x', '1')")
try:
    with db:
        db.execute("insert into kv values ('y', '2')")
        db.execute("insert into kv values ('x', 'dup')")
except sqlite3.IntegrityError as e:
    err = type(e).__name__
result = [dict(r) for r in db.execute("select * from kv")], err
