# value: [8264141345021879123968, -129127208515966861312, true]
a = lookup(key=2**70)
b = lookup(key=-(2**64))
result = [a, b, a == 7 * 2**70]
