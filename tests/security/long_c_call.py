# expect: timeout
# One long C call that bytecode interrupts cannot stop.
x = 10 ** 10 ** 8
result = 1
