# expect: ok
# value: [42, 2, 1]
# sqlite3 with a Python function and JSON.
import sqlite3
db = sqlite3.connect(":memory:")
db.create_function("double", 1, lambda x: x * 2)
result = db.execute("select double(21), json_extract('{\"a\": [1, 2]}', '$.a[1]'), sqlite_version() != ''").fetchone()
