# expect: ok
# value: [2, "RED", 6, "fast", ["RED", "GREEN"]]
# enum: Enum, IntFlag, auto, StrEnum.
import enum
class Color(enum.Enum):
    RED = enum.auto()
    GREEN = enum.auto()
class Perm(enum.IntFlag):
    R = 4
    W = 2
    X = 1
class Mode(enum.StrEnum):
    FAST = "fast"
result = [Color.GREEN.value, Color["RED"].name, int(Perm.R | Perm.W), str(Mode.FAST), [c.name for c in Color]]
