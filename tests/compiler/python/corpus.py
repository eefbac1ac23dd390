"""Differential corpus: each function runs natively and under CPython on
many inputs. Functions named loop_* get small ints (their running time
depends on the value); all others get the full edge sets."""


def add(a: int, b: int) -> int:
    return a + b


def sub(a: int, b: int) -> int:
    return a - b


def mul(a: int, b: int) -> int:
    return a * b


def floordiv(a: int, b: int) -> int:
    return a // b


def mod(a: int, b: int) -> int:
    return a % b


def truediv(a: int, b: int) -> float:
    return a / b


def neg(a: int) -> int:
    return -a


def pos_bool(a: bool) -> int:
    return +a


def absolute(a: int) -> int:
    return abs(a)


def fadd(a: float, b: float) -> float:
    return a + b


def fmul(a: float, b: float) -> float:
    return a * b


def fdiv(a: float, b: float) -> float:
    return a / b


def ffloordiv(a: float, b: float) -> float:
    return a // b


def fmod(a: float, b: float) -> float:
    return a % b


def fneg(a: float) -> float:
    return -a


def fabs(a: float) -> float:
    return abs(a)


def mixed_add(a: int, b: float) -> float:
    return a + b


def mixed_floordiv(a: float, b: int) -> float:
    return a // b


def mixed_mod(a: int, b: float) -> float:
    return a % b


def mixed_lt(a: int, b: float) -> bool:
    return a < b


def mixed_eq(a: float, b: int) -> bool:
    return a == b


def mixed_ge(a: int, b: float) -> bool:
    return a >= b


def cmp_ne(a: int, b: int) -> bool:
    return a != b


def chain3(a: int, b: int, c: int) -> bool:
    return a < b < c


def chain_mixed(a: int, b: float, c: int) -> bool:
    return a <= b < c != a


def chain_div(a: int, b: int) -> bool:
    return 0 < a // b <= 10


def and_ints(a: int, b: int) -> int:
    return a and b


def or_ints(a: int, b: int) -> int:
    return a or b


def or3(a: int, b: int, c: int) -> int:
    return a or b or c


def and_floats(a: float, b: float) -> float:
    return a and b


def short_circuit(a: int, b: int) -> bool:
    return b != 0 and a // b > 1


def short_circuit_or(a: int, b: int) -> bool:
    return b == 0 or a % b == 0


def not_int(a: int) -> bool:
    return not a


def not_float(a: float) -> bool:
    return not a


def bool_arith(a: bool, b: bool) -> int:
    return a + b * 2


def bool_and(a: bool, b: bool) -> bool:
    return a and not b


def bool_of(a: int) -> bool:
    return bool(a)


def ifexp(a: int, b: int) -> int:
    return a if a > b else b


def ifexp_div(a: int, b: int) -> int:
    return a // b if b else 0


def minmax(a: int, b: int) -> int:
    return min(a, b) * 2 + max(a, b)


def fmin(a: float, b: float) -> float:
    return min(a, b)


def fmax(a: float, b: float) -> float:
    return max(a, b)


def to_float(a: int) -> float:
    return float(a)


def to_int(a: float) -> int:
    return int(a)


def poly(x: int) -> int:
    return 3 * x * x - 2 * x + 7


def fpoly(x: float) -> float:
    return 0.5 * x * x - x / 3.0 + 1e-3


def branches(x: int) -> int:
    if x < 0:
        return -1
    elif x == 0:
        return 0
    elif x < 100:
        return 1
    else:
        return 2


def assign_in_branches(x: int) -> int:
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y + 1


def aug(x: int, y: int) -> int:
    x += y
    x -= 3
    x *= 2
    x //= 7
    x %= 1000
    return x


def faug(x: float) -> float:
    x /= 3.0
    x += 1.5
    x *= -2.0
    return x


def ann(x: int) -> float:
    y: float = 1.5
    y = y * x
    return y


def min_literal(x: int) -> int:
    return x + -9223372036854775808


def big_literal(x: int) -> bool:
    return x == 9223372036854775807


def expr_stmt(a: int, b: int) -> int:
    a // b
    return a


def loop_sum(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def loop_range2(a: int, b: int) -> int:
    s = 0
    for i in range(a, b):
        s = s * 3 + i
    return s


def loop_neg_step(n: int) -> int:
    s = 0
    for i in range(n, -n, -3):
        s = s * 2 + i
    return s


def loop_dyn_step(a: int, step: int) -> int:
    s = 0
    for i in range(a, -a, step):
        s += i * i
    return s


def loop_var_after(n: int) -> int:
    i = -1
    for i in range(n):
        pass
    return i


def loop_reassign_target(n: int) -> int:
    s = 0
    for i in range(n):
        i = i * 10
        s += i
    return s


def loop_reassign_stop(n: int) -> int:
    s = 0
    for i in range(n):
        n = n - 1
        s += n
    return s


def loop_continue(n: int) -> int:
    s = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        s += i
    return s


def loop_break(n: int) -> int:
    s = 0
    for i in range(n):
        if s > 20:
            break
        s += i
    return s


def loop_while(n: int) -> int:
    steps = 0
    while n != 1 and n > 0:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def loop_while_true(n: int) -> int:
    i = 0
    while True:
        i += 1
        if i * i > n:
            return i


def loop_nested(n: int) -> int:
    s = 0
    for i in range(n):
        for j in range(i, n):
            if (i + j) % 2:
                s += i * j
            else:
                s -= j
    return s


def loop_pow(n: int) -> int:
    r = 1
    for _ in range(n):
        r = r * 7
    return r


def loop_float(n: int) -> float:
    x = 1.0
    for i in range(1, n + 1):
        x = x / i + 0.1
    return x


def loop_div_by_counter(n: int) -> int:
    s = 0
    for i in range(n, -2, -1):
        s += 100 // i
    return s


def loop_mod_sign(n: int) -> int:
    s = 0
    for i in range(-n, n + 1):
        s = s * 31 % 1000003 + i % 7 - i // 5
    return s


def gcd(a: int, b: int) -> int:
    while b:
        t = b
        b = a % b
        a = t
    return a


def loop_fibr(n: int) -> int:
    if n < 2:
        return n
    return loop_fibr(n - 1) + loop_fibr(n - 2)


def loop_fib(n: int) -> int:
    return loop_fibr(n % 20)


def loop_is_even(n: int) -> bool:
    if n == 0:
        return True
    return loop_is_odd(n - 1)


def loop_is_odd(n: int) -> bool:
    if n == 0:
        return False
    return loop_is_even(n - 1)


def loop_mutual(n: int) -> bool:
    return loop_is_even(abs(n) % 50)


def deep(n: int) -> int:
    if n <= 0:
        return 0
    return deep(n - 1) + 1


def collatz_max(n: int) -> int:
    best = n
    while n > 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        best = max(best, n)
    return best


def loop_data_dependent(n: int) -> int:
    acc = 0
    for i in range(n):
        if acc % 5 == 1:
            acc = acc * 3 + i
        else:
            acc = acc // 2 + i * i
    return acc


def sign_mix(a: int, b: int) -> int:
    return (a // b) * b + a % b - a


def float_chain(x: float) -> bool:
    return -1.0 < x < 1.0 or x != x


def clamp(x: int, lo: int, hi: int) -> int:
    return lo if x < lo else hi if x > hi else x
