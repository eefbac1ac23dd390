# expect: ok
# value: ["1,234,567.89", "1.234568e+06", "00101010", "left    |", "25%", "     r", "0xff", "x=1234567.9"]
# format specifications and f-strings.
x = 1234567.891
result = [f"{x:,.2f}", f"{x:e}", f"{42:08b}", f"{'left':<8}|", f"{0.25:.0%}", "{:>6}".format("r"), format(255, "#x"), f"{x=:.1f}"]
