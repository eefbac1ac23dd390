"""Agent and validation code raising exceptions as its authors write them
(test_raise_args.py): a class raised bare or called with no argument, with
an int, a key, or several arguments; `raise ... from None`; a bare `raise`
and `raise e` in a handler; handlers reading repr(e), f"{e!r}",
type(e).__name__ and isinstance(e, C) of what they took; the program's own classes with a
docstring and class constants for body."""
from typing import Dict, List, Tuple


class AgentError(Exception):
    """Base of the agent's errors."""


class ToolError(AgentError):
    """A tool call that failed."""

    retryable = True


class BudgetExceeded(AgentError):
    pass


class SchemaError(ValueError):
    """An argument that does not fit the tool's schema."""

    status = 400
    title: str = "Bad Request"


class MissingField(KeyError):
    """A record field nobody set."""


def check_budget(used: int, limit: int) -> None:
    if used > limit:
        raise BudgetExceeded(used, limit)


def require_key(record: Dict[str, int], key: str) -> int:
    if key not in record:
        raise KeyError(key)
    return record[key]


def parse_count(text: str) -> int:
    if not text:
        raise ValueError
    if not text.isdigit():
        raise ValueError("not a count", text)
    return int(text)


def check_step(step: int, max_steps: int) -> None:
    if step < 0:
        raise ValueError(step)
    if step >= max_steps:
        raise RuntimeError()


def nth(values: List[int], i: int) -> int:
    if i < 0 or i >= len(values):
        raise IndexError(i)
    return values[i]


def checked_ratio(x: float, top: float) -> float:
    if x < 0.0 or x > top:
        raise ValueError(x, top)
    return x / top


def tool_status(codes: List[int]) -> List[str]:
    out: List[str] = []
    for c in codes:
        try:
            if c >= 500:
                raise ToolError("server", c)
            if c == 429:
                raise BudgetExceeded
            if c == 404:
                raise ToolError(c)
            out.append("ok")
        except ToolError as e:
            out.append(repr(e))
        except AgentError as e:
            out.append(type(e).__name__)
    return out


def describe_failure(text: str) -> str:
    try:
        return str(parse_count(text))
    except ValueError as e:
        return f"{type(e).__name__}: {e!r} / {e}"


def strict_steps(steps: List[int]) -> int:
    done = 0
    for s in steps:
        try:
            check_step(s, 10)
        except RuntimeError:
            raise
        except ValueError:
            continue
        done += 1
    return done


def reraise_named(steps: List[int]) -> int:
    total = 0
    for s in steps:
        try:
            check_step(s, 5)
            total += s
        except ValueError as e:
            if s < -100:
                raise e
            total -= 1
    return total


def lookup_port(ports: Dict[str, int], name: str) -> int:
    try:
        return ports[name]
    except KeyError:
        raise SchemaError(f"unknown service {name!r}") from None


def safe_ratio(a: int, b: int) -> str:
    try:
        return str(a // b)
    except ZeroDivisionError as e:
        return repr(e)


def log_errors(texts: List[str]) -> List[str]:
    log: List[str] = []
    for t in texts:
        try:
            parse_count(t)
        except ValueError as e:
            log.append(f"error {e!r}")
    return log


def budget_left(used: List[int], limit: int) -> int:
    total = 0
    for u in used:
        total += u
        try:
            check_budget(total, limit)
        except BudgetExceeded as e:
            return -len(str(e))
    return limit - total


def step_or_default(step: int) -> int:
    try:
        check_step(step, 3)
        return step
    except (ValueError, RuntimeError) as e:
        return -1 if type(e).__name__ == "ValueError" else -2


def first_missing(record: Dict[str, int], keys: List[str]) -> str:
    for k in keys:
        try:
            require_key(record, k)
        except KeyError as e:
            return repr(e)
    return ""


def validate_name(label: str) -> None:
    if not label:
        raise SchemaError
    if len(label) > 8:
        raise SchemaError("name too long", len(label), 8)


def names_ok(names: List[str]) -> int:
    ok = 0
    for n in names:
        try:
            validate_name(n)
            ok += 1
        except SchemaError:
            pass
    return ok


def schema_problems(names: List[str]) -> List[str]:
    problems: List[str] = []
    for n in names:
        try:
            validate_name(n)
        except ValueError as e:
            problems.append(f"{type(e).__name__}{e!r}:{e}")
    return problems


def field_of(record: Dict[str, int], field: str) -> int:
    if field not in record:
        raise MissingField(len(field))
    return record[field]


def fields_total(record: Dict[str, int], fields: List[str]) -> Tuple[int, str]:
    total = 0
    last = ""
    for f in fields:
        try:
            total += field_of(record, f)
        except LookupError as e:
            last = repr(e)
    return total, last


def last_value(values: List[int]) -> int:
    try:
        return values[-1]
    except IndexError as e:
        raise IndexError("no last value", repr(e)) from None


def budget_report(used: List[int], limit: int) -> List[str]:
    report: List[str] = []
    for u in used:
        try:
            check_budget(u, limit)
            report.append("within")
        except AgentError as e:
            report.append(repr(e) + "|" + str(e))
    return report


def retry_until(codes: List[int], attempts: int) -> int:
    tries = 0
    for c in codes:
        tries += 1
        try:
            if c >= 500:
                raise ToolError(c, tries)
            return tries
        except ToolError:
            if tries >= attempts:
                raise
    raise BudgetExceeded(tries)


def classify(codes: List[int], budget: int) -> List[str]:
    kinds: List[str] = []
    for c in codes:
        try:
            if c >= 500:
                raise ToolError("server", c)
            check_budget(c, budget)
            check_step(c - 300, 1000)
            kinds.append("ok")
        except (AgentError, ValueError, RuntimeError) as e:
            if isinstance(e, ToolError):
                kinds.append("retry")
            elif isinstance(e, (BudgetExceeded, RuntimeError)):
                kinds.append("stop")
            else:
                kinds.append("invalid " + str(e))
    return kinds


class HttpError(AgentError):
    """A tool's HTTP failure: its message for the base, its status kept."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class PageMissing(HttpError):
    pass


def fetch(status: int) -> int:
    if status == 404:
        raise PageMissing("no such page", status)
    if status >= 400:
        raise HttpError("request failed", status)
    return status


def fetch_all(statuses: List[int]) -> List[str]:
    out: List[str] = []
    for s in statuses:
        try:
            out.append(str(fetch(s)))
        except PageMissing:
            out.append("missing")
        except AgentError as e:
            out.append(type(e).__name__ + (" retry" if isinstance(e, HttpError) else ""))
    return out
