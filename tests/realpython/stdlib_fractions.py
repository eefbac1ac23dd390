# expect: ok
# value: ["11/12", "1/8", "3/2", 0.9166666666666666]
# fractions.
from fractions import Fraction
x = Fraction(3, 4) + Fraction(1, 6)
result = [str(x), str(Fraction("0.125")), str(Fraction(1.5).limit_denominator(10)), float(x)]
