# expect: ok
# value: [["a", 7], ["b", 5]]
# sqlite3 in memory: create, insert, aggregate.
import sqlite3
db = sqlite3.connect(":memory:")
db.execute("create table t (name text, qty integer)")
db.executemany("insert into t values (?, ?)", [("a", 3), ("b", 5), ("a", 4)])
result = db.execute("select name, sum(qty) from t group by name order by name").fetchall()
