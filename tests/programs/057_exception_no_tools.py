# error: ValueError: plain failure
x = 1
raise ValueError("plain failure")
