# value: ["utf-8", "β€", 5]
import sys
text = "β€"
result = [sys.getfilesystemencoding(), echo(t=text)["t"], len(text.encode())]
