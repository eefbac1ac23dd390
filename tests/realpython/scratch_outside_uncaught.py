# expect: error OSError
# isolation: sandbox
# An uncaught refusal to write outside ends the program with an error, not a kill.
open("/spine-outside.txt", "w")
