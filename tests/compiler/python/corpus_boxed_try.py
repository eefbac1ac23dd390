"""Differential corpus of try/except/finally where boxed values raise
CPython's exceptions (test_boxed_try.py): records parsed with
`except KeyError`, validation helpers catching `(TypeError, ValueError) as e`
and reporting `str(e)` or `e.args`, `except LookupError` taking a KeyError or
an IndexError, `finally` running while an exception passes, bare `raise`,
exceptions no clause matches going on, one raised while another is handled,
and native faults (a typed list's IndexError, a typed dict's KeyError) taken
as the exception objects CPython would have raised."""
from typing import Any, Dict, List


def get_field(record: Any, key: Any, default: Any) -> Any:
    try:
        return record[key]
    except KeyError:
        return default


def field_or_reason(record: Any, key: Any) -> Any:
    try:
        return record[key]
    except KeyError as e:
        return f"missing field {e}"


def missing_key_args(record: Any, key: Any) -> Any:
    try:
        return (record[key],)
    except KeyError as e:
        return e.args


def parse_count(record: Any) -> Any:
    try:
        return int(record["count"])
    except KeyError:
        return -1
    except (TypeError, ValueError) as e:
        return f"bad count: {e}"


def field_or_alias(record: Any, key: Any, alias: Any) -> Any:
    # A KeyError raised while handling another has it as __context__, as in CPython.
    try:
        return record[key]
    except KeyError:
        return record[alias]


def record_attempt(log: Any, record: Any, key: Any) -> Any:
    value: Any = None
    try:
        value = record[key]
    finally:
        log.append(len(log))
    return value


def add_checked(a: Any, b: Any) -> Any:
    try:
        return a + b
    except TypeError as e:
        return "TypeError: " + str(e)


def ratio(a: Any, b: Any) -> Any:
    try:
        return a / b
    except ZeroDivisionError:
        return None
    except (TypeError, ValueError) as e:
        return e.args


def item_or_none(container: Any, key: Any) -> Any:
    try:
        return container[key]
    except LookupError:
        return None


def describe_failure(container: Any, key: Any) -> str:
    try:
        value = container[key]
    except Exception as e:
        return repr(e)
    return f"ok: {value!r}"


def only_index_errors(container: Any, key: Any) -> Any:
    # A KeyError or TypeError matches no clause: it goes on, as CPython's does.
    try:
        return container[key]
    except IndexError:
        return "no such index"


def sum_numeric(items: list) -> Any:
    total: Any = 0
    for item in items:
        try:
            total = total + item
        except TypeError:
            continue
    return total


def parse_ints(values: list) -> list:
    out: list = []
    bad = 0
    for v in values:
        try:
            n = int(v)
        except ValueError:
            bad += 1
        except TypeError:
            bad += 100
        else:
            out.append(n * 2)
    out.append(bad)
    return out


def lookups_logged(record: Any, keys: list) -> list:
    log: list = []
    for k in keys:
        try:
            log.append(record[k])
        except KeyError:
            log.append("missing")
        finally:
            log.append(len(log))
    return log


def length_then_log(x: Any) -> list:
    log: list = ["start"]
    try:
        log.append(len(x))
    except TypeError as e:
        log.append(str(e))
    finally:
        log.append("end")
    return log


def first_word_upper(text: Any) -> Any:
    try:
        words = text.split()
        return words[0].upper()
    except AttributeError as e:
        return f"not text: {e}"
    except IndexError:
        return ""


def nested_lookup(data: Any, outer: Any, inner: Any) -> Any:
    try:
        level = data[outer]
        try:
            return level[inner]
        except KeyError:
            return "no inner"
    except KeyError as e:
        return f"no outer {e}"
    except TypeError:
        return "not a mapping"


def reraised(record: Any, key: Any) -> Any:
    try:
        return record[key]
    except KeyError:
        raise


def compare_or_flag(a: Any, b: Any) -> Any:
    try:
        return a < b
    except TypeError as e:
        return e.args[0]


def convert_all(values: list) -> list:
    out: list = []
    for v in values:
        try:
            out.append(float(v))
        except (TypeError, ValueError) as e:
            out.append(str(e))
    return out


def nth_or_message(xs: List[int], i: int, label: Any) -> Any:
    # A typed list's IndexError in a function with boxed values: the same exception object.
    try:
        return xs[i]
    except IndexError as e:
        return f"{label}: {e}"


def typed_count(counts: Dict[str, int], key: str, fallback: Any) -> Any:
    try:
        return counts[key]
    except KeyError as e:
        return (fallback, e.args[0], str(e))


def per_item_rate(total: int, n: int, tag: Any) -> Any:
    try:
        return total // n
    except ArithmeticError as e:
        return (tag, str(e))


def catch_all(a: Any, b: Any) -> Any:
    try:
        return a * b + a
    except:  # noqa: E722 - a bare except takes everything, as written
        return "failed"


def combine(a: Any, b: Any) -> Any:
    return a + b


def combined_length(a: str, b: int) -> int:
    # No boxed value of its own: the helper's TypeError is CPython's, matched by CPython's rules.
    try:
        return len(str(combine(a, b)))
    except TypeError:
        return -1
