"""Differential corpus of the numeric builtins as algorithm collections use
them (test_numeric_builtins.py): round(value, 2) at the end of unit
conversions and geometry helpers, round(x) to the nearest int, pow(base,
exp, mod) in modular arithmetic, bin(n)[2:] in bit tricks, hex() and oct()
for display, int(bits, 2) and int(text, base) to read digits back; with them
`(a, b, c).count(0) != 1` argument checks, x.is_integer(), sum() of a set or
a tuple and int()/str() without an argument. Each
runs natively and under CPython on ties, zeros, negatives, int64 bounds,
inf and nan, and huge or negative ndigits."""
import math
from typing import Dict, List, Set, Tuple


# ---- conversions ending in round(value, ndigits) --------------------------------
def celsius_to_fahrenheit(celsius: float, ndigits: int = 2) -> float:
    """
    Convert a given value from Celsius to Fahrenheit and round it to ndigits places.

    >>> celsius_to_fahrenheit(37.5)
    99.5
    """
    return round((celsius * 9 / 5) + 32, ndigits)


def kelvin_to_celsius(kelvin: float, ndigits: int = 2) -> float:
    """
    >>> kelvin_to_celsius(273.354, 3)
    0.204
    """
    return round(kelvin - 273.15, ndigits)


def fahrenheit_to_kelvin(fahrenheit: float, ndigits: int = 2) -> float:
    return round(((fahrenheit - 32) * 5 / 9) + 273.15, ndigits)


def molarity_to_normality(nfactor: int, moles: float, volume: float) -> int:
    """
    Normality from molarity: n-factor times moles per litre, to the nearest whole number.

    >>> molarity_to_normality(2, 3.1, 0.31)
    20
    """
    return round(float(moles / volume) * nfactor)


def area_circle(radius: float) -> float:
    """
    >>> area_circle(20)
    1256.64
    """
    if radius < 0:
        raise ValueError("area_circle() only accepts non-negative values")
    return round(math.pi * radius**2, 2)


def surface_area_torus(torus_radius: float, tube_radius: float) -> float:
    """
    >>> surface_area_torus(1, 1)
    39.48
    """
    if torus_radius < 0 or tube_radius < 0:
        raise ValueError("surface_area_torus() only accepts non-negative values")
    if torus_radius < tube_radius:
        raise ValueError("surface_area_torus() does not support spindle or self intersecting tori")
    return round(4 * pow(math.pi, 2) * torus_radius * tube_radius, 2)


def charging_capacitor(source_voltage: float, resistance: float, capacitance: float, time_sec: float) -> float:
    """Voltage across a charging capacitor after time_sec, in volts to 3 places."""
    if source_voltage <= 0:
        raise ValueError("Source voltage must be positive.")
    if resistance <= 0:
        raise ValueError("Resistance must be positive.")
    if capacitance <= 0:
        raise ValueError("Capacitance must be positive.")
    return round(source_voltage * (1 - math.exp(-time_sec / (resistance * capacitance))), 3)


def percent_change(old: float, new: float) -> float:
    return round((new - old) / old * 100, 1)


def price_label(amount: float) -> str:
    return "$" + str(round(amount, 2))


def average_rounded(values: List[float]) -> float:
    if not values:
        return 0.0
    total = 0.0
    for v in values:
        total += v
    return round(total / len(values), 2)


# ---- round() itself ------------------------------------------------------------
def round_half_even(x: float) -> int:
    """round(0.5) is 0 and round(2.5) is 2: ties go to the even neighbour."""
    return round(x)


def round_to_places(x: float, places: int) -> float:
    return round(x, places)


def round_int_to(n: int, places: int) -> int:
    return round(n, places)


def nearest_hundred(n: int) -> int:
    return round(n, -2)


def round_flag(flag: bool) -> int:
    return round(flag) + round(flag, 1) * 2


def fib_binet(n: int) -> int:
    """
    Fibonacci number n from Binet's formula (exact up to about n = 70).

    >>> fib_binet(10)
    55
    """
    if n < 0:
        raise ValueError("n is negative")
    sqrt_5 = math.sqrt(5)
    phi = (1 + sqrt_5) / 2
    return round(phi**n / sqrt_5)


def decimal_isolate(number: float, digit_amount: int) -> float:
    """
    Isolate the decimal part of a number, rounded to digit_amount places when positive.

    >>> decimal_isolate(35.345, 1)
    0.3
    """
    if digit_amount > 0:
        return round(number - int(number), digit_amount)
    return number - int(number)


def is_square_root_whole(n: int) -> bool:
    return round(math.sqrt(n)) ** 2 == n


# ---- pow() ---------------------------------------------------------------------
def modular_exponential(base: int, power: int, mod: int) -> int:
    """
    >>> modular_exponential(5, 0, 10)
    1
    """
    if power < 0:
        return -1
    return pow(base, power, mod)


def modular_inverse(a: int, m: int) -> int:
    return pow(a, -1, m)


def power_mod(base: int, power: int, mod: int) -> int:
    return pow(base, power, mod)


def rsa_round_trip(message: int, e: int, d: int, n: int) -> int:
    return pow(pow(message, e, n), d, n)


def int_power(base: int, exponent: int) -> int:
    return pow(base, exponent)


def float_power(x: float, y: float) -> float:
    return pow(x, y)


def geometric_nth_term(first_term: float, common_ratio: float, nth_term: int) -> float:
    return first_term * pow(common_ratio, nth_term - 1)


def excel_title_to_column(column_title: str) -> int:
    """
    >>> excel_title_to_column("AB")
    28
    """
    if not column_title.isupper():
        raise ValueError("column title must be upper case")
    answer = 0
    index = len(column_title) - 1
    power = 0
    while index >= 0:
        value = (ord(column_title[index]) - 64) * pow(26, power)
        answer += value
        power += 1
        index -= 1
    return answer


# ---- bin(), oct(), hex() ---------------------------------------------------------
def binary_count_setbits(a: int) -> int:
    """
    >>> binary_count_setbits(25)
    3
    """
    if a < 0:
        raise ValueError("Input value must be a positive integer")
    return bin(a).count("1")


def logical_left_shift(number: int, shift_amount: int) -> str:
    if number < 0 or shift_amount < 0:
        raise ValueError("both inputs must be positive integers")
    binary_number = str(bin(number))
    binary_number += "0" * shift_amount
    return binary_number


def twos_complement(number: int) -> str:
    """
    >>> twos_complement(-5)
    '0b1011'
    """
    if number > 0:
        raise ValueError("input must be a negative integer")
    binary_number_length = len(bin(number)[3:])
    twos_complement_number = bin(abs(number) - (1 << binary_number_length))[3:]
    twos = ("1" + "0" * (binary_number_length - len(twos_complement_number)) + twos_complement_number) \
        if number < 0 else "0"
    return "0b" + twos


def bit_length_by_text(n: int) -> int:
    text = bin(n)
    if n < 0:
        return len(text) - 3
    return len(text) - 2


def to_bin(n: int) -> str:
    return bin(n)


def to_oct(n: int) -> str:
    return oct(n)


def to_hex(n: int) -> str:
    return hex(n)


def hex_upper(n: int) -> str:
    return hex(n)[2:].upper()


def flag_texts(flag: bool) -> str:
    return bin(flag) + oct(flag) + hex(flag)


# ---- int(text, base) -----------------------------------------------------------
def bits_to_int(bits: str) -> int:
    return int(bits, 2)


def parse_in_base(text: str, base: int) -> int:
    return int(text, base)


def hex_to_decimal(hex_string: str) -> int:
    """
    >>> hex_to_decimal("-Ff")
    -255
    """
    hex_string = hex_string.strip().lower()
    if not hex_string:
        raise ValueError("Empty string was passed to the function")
    return int(hex_string, 16)


def not_32(i: int) -> int:
    """The 32-bit complement of i, written as text first (md5's helper)."""
    i_str = format(i, "032b")
    new_str = ""
    for c in i_str:
        new_str += "1" if c == "0" else "0"
    return int(new_str, 2)


def new_generation(cells: List[int], rule: int) -> List[int]:
    """One step of an elementary cellular automaton: each cell's neighbourhood read as a 3-bit number."""
    rule_bits = format(rule, "08b")
    next_generation = []
    population = len(cells)
    for i in range(population):
        left_neighbor = 0 if i == 0 else cells[i - 1]
        right_neighbor = 0 if i == population - 1 else cells[i + 1]
        situation = 7 - int(f"{left_neighbor}{cells[i]}{right_neighbor}", 2)
        next_generation.append(int(rule_bits[situation]))
    return next_generation


# ---- argument checks on tuples, is_integer(), sum() of sets and tuples ------------
def ohms_law(voltage: float, current: float, resistance: float) -> Dict[str, float]:
    """
    Apply Ohm's Law on any two given electrical values; the one given as 0 is computed.

    >>> ohms_law(voltage=10, resistance=5, current=0)
    {'current': 2.0}
    """
    if (voltage, current, resistance).count(0) != 1:
        raise ValueError("One and only one argument must be 0")
    if resistance < 0:
        raise ValueError("Resistance cannot be negative")
    if voltage == 0:
        return {"voltage": float(current * resistance)}
    elif current == 0:
        return {"current": voltage / resistance}
    elif resistance == 0:
        return {"resistance": voltage / current}
    else:
        raise ValueError("Exactly one argument must be 0")


def or_gate(input_1: int, input_2: int) -> int:
    return int((input_1, input_2).count(1) != 0)


def xor_gate(input_1: int, input_2: int) -> int:
    return (input_1, input_2).count(0) % 2


def position_of(value: float, first: float, second: float, third: float) -> int:
    return (first, second, third).index(value)


def is_one_of(value: float, first: float, second: float) -> bool:
    return value in (first, second)


def is_whole(x: float) -> bool:
    return x.is_integer()


def has_integer_hypotenuse(side_a: int, side_b: int) -> bool:
    return math.sqrt(side_a * side_a + side_b * side_b).is_integer()


def sum_of_distinct(numbers: List[int]) -> int:
    return sum(set(numbers))


def sum_of_members(members: Set[int], start: int) -> int:
    return sum(members, start)


def pair_total(pair: Tuple[int, int]) -> int:
    return sum(pair)


def triple_total(first: float, second: float, third: float) -> float:
    return sum((first, second, third))


def empty_values() -> str:
    return str() + str(int()) + str(float()) + str(bool())
