# expect: ok
# value: ["3.30", "0.33333", "2.68", "0.1428571429"]
# decimal arithmetic with contexts and rounding.
from decimal import Decimal, getcontext, ROUND_HALF_UP, localcontext
getcontext().prec = 10
a = Decimal("1.10") + Decimal("2.20")
with localcontext() as ctx:
    ctx.prec = 5
    third = Decimal(1) / Decimal(3)
result = [str(a), str(third), str(Decimal("2.675").quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)), str(Decimal(1) / Decimal(7))]
