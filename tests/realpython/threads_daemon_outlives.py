# expect: ok
# value: "done"
# tools: sleep
# isolation: sandbox
# A daemon thread still inside a tool call when the program ends dies with it.
import threading
threading.Thread(target=lambda: sleep(ms=3000), daemon=True).start()
result = "done"
