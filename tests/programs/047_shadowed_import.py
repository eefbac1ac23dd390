# value: 9
from math import floor as fail
result = fail(2.5) + lookup(key=1)
