# value: "TypeError"
try:
    echo(v={1, 2})
except TypeError as e:
    result = "TypeError"
