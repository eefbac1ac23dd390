# expect: error OSError
# Overwrite a stdlib module other executions import: the stdlib is a
# read-only bind mount (EROFS), and Landlock grants no write there either.
open('/usr/lib/python3.11/json/__init__.py', 'w').write('import os; os.system("id")')
result = 1
