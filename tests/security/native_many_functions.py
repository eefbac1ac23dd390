# expect: ok
# native: auto
# value: 791608
# Thirty-two eligible functions (as many as the queue has room for), each
# made hot, then the program ends: the execution may have only its share of
# the engine's compile queue at once (the rest wait inside it), so it cannot
# starve the next execution's compilations, and everything it still waited
# for is cancelled when it ends (no compiler outlives it).

def f0(x: int) -> int:
    return (x * 3 + 0) % 1000003

def f1(x: int) -> int:
    return (x * 4 + 1) % 1000003

def f2(x: int) -> int:
    return (x * 5 + 2) % 1000003

def f3(x: int) -> int:
    return (x * 6 + 3) % 1000003

def f4(x: int) -> int:
    return (x * 7 + 4) % 1000003

def f5(x: int) -> int:
    return (x * 8 + 5) % 1000003

def f6(x: int) -> int:
    return (x * 9 + 6) % 1000003

def f7(x: int) -> int:
    return (x * 10 + 7) % 1000003

def f8(x: int) -> int:
    return (x * 11 + 8) % 1000003

def f9(x: int) -> int:
    return (x * 12 + 9) % 1000003

def f10(x: int) -> int:
    return (x * 13 + 10) % 1000003

def f11(x: int) -> int:
    return (x * 14 + 11) % 1000003

def f12(x: int) -> int:
    return (x * 15 + 12) % 1000003

def f13(x: int) -> int:
    return (x * 16 + 13) % 1000003

def f14(x: int) -> int:
    return (x * 17 + 14) % 1000003

def f15(x: int) -> int:
    return (x * 18 + 15) % 1000003

def f16(x: int) -> int:
    return (x * 19 + 16) % 1000003

def f17(x: int) -> int:
    return (x * 20 + 17) % 1000003

def f18(x: int) -> int:
    return (x * 21 + 18) % 1000003

def f19(x: int) -> int:
    return (x * 22 + 19) % 1000003

def f20(x: int) -> int:
    return (x * 23 + 20) % 1000003

def f21(x: int) -> int:
    return (x * 24 + 21) % 1000003

def f22(x: int) -> int:
    return (x * 25 + 22) % 1000003

def f23(x: int) -> int:
    return (x * 26 + 23) % 1000003

def f24(x: int) -> int:
    return (x * 27 + 24) % 1000003

def f25(x: int) -> int:
    return (x * 28 + 25) % 1000003

def f26(x: int) -> int:
    return (x * 29 + 26) % 1000003

def f27(x: int) -> int:
    return (x * 30 + 27) % 1000003

def f28(x: int) -> int:
    return (x * 31 + 28) % 1000003

def f29(x: int) -> int:
    return (x * 32 + 29) % 1000003

def f30(x: int) -> int:
    return (x * 33 + 30) % 1000003

def f31(x: int) -> int:
    return (x * 34 + 31) % 1000003

total = 0
for k, f in enumerate([f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15, f16, f17, f18, f19, f20, f21, f22, f23, f24, f25, f26, f27, f28, f29, f30, f31]):
    for i in range(1001):
        total = (total + f(i)) % 1000003
result = total
