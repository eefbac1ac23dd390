# expect: ok
# value: [true, true, true, true, true, true]
# numbers and collections.abc.
import numbers, collections.abc as cabc
from fractions import Fraction
result = [isinstance(1, numbers.Integral), isinstance(1.5, numbers.Real), isinstance(Fraction(1, 2), numbers.Rational), isinstance({}, cabc.Mapping), isinstance((x for x in ()), cabc.Iterator), issubclass(list, cabc.Sequence)]
