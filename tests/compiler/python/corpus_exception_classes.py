"""Validation code with the program's own exception classes, written as its
authors write it (test_exception_classes.py): a hierarchy of classes with
a docstring or `pass` for body, deriving from ValueError, Exception,
LookupError and KeyError; -> None checks that raise them; callers catching
them by their own class, by a base of the program's or a builtin base, in a
tuple with builtin classes, with `as e` and str(e); and exceptions no
clause takes, which reach the caller as the program's class itself."""
from typing import Dict, List


class ValidationError(ValueError):
    """A value that fails validation."""


class RangeError(ValidationError):
    pass


class ConfigError(Exception):
    """A setting the program cannot use."""


class MissingSetting(ConfigError):
    ...


class NotFound(LookupError):
    pass


class UnknownField(KeyError):
    """A record field nobody declared."""


def require_positive(name: str, value: int) -> int:
    if value <= 0:
        raise ValidationError(f"{name} must be positive, got {value}")
    return value


def check_range(value: int, low: int, high: int) -> None:
    if value < low or value > high:
        raise RangeError(f"{value} not in [{low}, {high}]")


def parse_port(text: str) -> int:
    if not text.isdigit():
        raise ValidationError(f"not a number: {text!r}")
    port = int(text)
    check_range(port, 1, 65535)
    return port


def valid_ports(texts: List[str]) -> List[int]:
    ports: List[int] = []
    for t in texts:
        try:
            ports.append(parse_port(t))
        except ValidationError:
            continue
    return ports


def port_errors(texts: List[str]) -> List[str]:
    errors: List[str] = []
    for t in texts:
        try:
            parse_port(t)
        except RangeError as e:
            errors.append(f"range: {e}")
        except ValidationError as e:
            errors.append(f"invalid: {e}")
    return errors


def caught_by_builtin_base(value: int) -> str:
    # A ValidationError is a ValueError: the builtin clause takes it, str(e) is its message.
    try:
        return str(require_positive("size", value))
    except ValueError as e:
        return "ValueError: " + str(e)


def setting(settings: Dict[str, str], key: str) -> str:
    if key not in settings:
        raise MissingSetting(f"no setting {key!r}")
    value = settings[key]
    if not value:
        raise ConfigError(f"setting {key!r} is empty")
    return value


def setting_or_default(settings: Dict[str, str], key: str, default: str) -> str:
    try:
        return setting(settings, key)
    except MissingSetting:
        return default


def describe_setting(settings: Dict[str, str], key: str) -> str:
    # A subclass's clause does not take its base: an empty setting goes to the second clause.
    try:
        return "value " + setting(settings, key)
    except MissingSetting as e:
        return "missing: " + str(e)
    except ConfigError as e:
        return "config: " + str(e)


def port_setting(settings: Dict[str, str], key: str) -> int:
    # Neither clause names a ConfigError: a missing setting reaches the caller as MissingSetting.
    try:
        return parse_port(setting(settings, key))
    except (KeyError, ValidationError):
        return -1


def find_index(values: List[int], target: int) -> int:
    for i in range(len(values)):
        if values[i] == target:
            return i
    raise NotFound(f"{target} not in list")


def first_of_either(values: List[int], a: int, b: int) -> int:
    # LookupError takes both the program's NotFound and a list's IndexError.
    try:
        return values[find_index(values, a) + 5]
    except NotFound:
        pass
    except LookupError:
        return -2
    try:
        return find_index(values, b)
    except LookupError:
        return -1


def field_value(record: Dict[str, int], field: str) -> int:
    if field not in ("id", "count", "total"):
        raise UnknownField(field)
    return record[field]


def total_fields(record: Dict[str, int], fields: List[str]) -> int:
    # A KeyError clause takes the program's KeyError subclass and a dict's own KeyError alike.
    total = 0
    for f in fields:
        try:
            total += field_value(record, f)
        except UnknownField:
            total += 1000
        except KeyError:
            total -= 1
    return total


def validate_all(sizes: List[int]) -> int:
    # Nothing here takes a RangeError: the first one ends the loop and reaches the caller.
    checked = 0
    for s in sizes:
        try:
            require_positive("size", s)
        except ValidationError as e:
            if "must be positive" not in str(e):
                raise RuntimeError("unexpected validation error")
            continue
        check_range(s, 1, 10)
        checked += 1
    return checked


def checked_with_cleanup(sizes: List[int]) -> List[str]:
    log: List[str] = []
    for s in sizes:
        try:
            try:
                check_range(s, 0, 9)
                log.append(str(s))
            finally:
                log.append("/")
        except ValidationError as e:
            log.append(str(e))
            if s > 1000:
                break
    return log


def any_error_counts(values: List[int]) -> List[int]:
    # Bare except and `except Exception` take the program's classes too.
    counts = [0, 0, 0]
    for v in values:
        try:
            require_positive("v", v)
            check_range(v, 0, 50)
            counts[0] += 1
        except Exception:
            counts[1] += 1
        try:
            if v == 7:
                raise ConfigError("seven")
        except:  # noqa: E722 - what a bare clause takes is the point
            counts[2] += 1
    return counts
