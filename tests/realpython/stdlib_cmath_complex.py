# expect: ok
# value: [5.0, "1j", "(3-4j)", 3.141593]
# cmath and complex numbers (as strings: JSON has no complex).
import cmath
z = complex(3, 4)
result = [abs(z), str(cmath.sqrt(-1)), str(z.conjugate()), round(cmath.phase(-1), 6)]
