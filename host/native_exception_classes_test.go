package host_test

import (
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// exceptionClassesProgram validates records with its own exception classes,
// as typed code does: a -> None check raising a ValidationError (a
// ValueError), a caller taking it by its own class and one taking it as a
// ValueError, both natively; and one no native clause takes, which reaches
// the program's Python code as the program's class with its message.
const exceptionClassesProgram = `from typing import List


class ValidationError(ValueError):
    """A value that fails validation."""


class RangeError(ValidationError):
    pass


def check_port(port: int) -> None:
    if port < 1 or port > 65535:
        raise RangeError(f"port {port} out of range")


def valid_ports(ports: List[int]) -> List[int]:
    out: List[int] = []
    for p in ports:
        try:
            check_port(p)
            out.append(p)
        except ValidationError:
            continue
    return out


def port_problem(port: int) -> str:
    try:
        check_port(port)
        return "ok"
    except ValueError as e:
        return "invalid: " + str(e)


def strict_sum(ports: List[int]) -> int:
    total = 0
    for p in ports:
        check_port(p)
        total += p
    return total


try:
    strict_sum([80, 0])
except ValidationError as e:
    escaped = [type(e).__name__, isinstance(e, RangeError), list(e.args)]
result = [valid_ports([80, 0, 443, 70000]), port_problem(22), port_problem(-1), escaped]
`

func TestNativeProgramExceptionClasses(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, exceptionClassesProgram, `{}`)
		want := `[[80, 443], "ok", "invalid: port -1 out of range", ["RangeError", true, ["port 0 out of range"]]]`
		expectRun(t, resp, want, []string{"valid_ports", "port_problem", "strict_sum"}, nil)
		for _, name := range []string{"valid_ports", "port_problem"} {
			if f := nativeEntry(t, resp, name); f.Fallbacks != 0 {
				t.Errorf("%s fell back to CPython: %+v", name, f)
			}
		}
	})
}

// raiseArgumentsProgram raises as agent code does: a class bare, with an int
// or with several arguments, one whose __init__ keeps a status, a bare
// `raise` in a handler, and handlers reading repr(e) and type(e).__name__;
// all of it natively. A handler reading e.args stays Python, saying why.
const raiseArgumentsProgram = `from typing import List


class AgentError(Exception):
    """Base of the agent's errors."""


class ToolError(AgentError):
    retryable = True


class BudgetExceeded(AgentError):
    pass


class HttpError(AgentError):
    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def fetch(status: int) -> int:
    if status >= 400:
        raise HttpError("request failed", status)
    return status


def call_tool(code: int, budget: int) -> None:
    if code >= 500:
        raise ToolError("server", code)
    if code > budget:
        raise BudgetExceeded
    if code < 0:
        raise ValueError(code)


def checked(code: int, budget: int) -> int:
    try:
        call_tool(code, budget)
    except ValueError:
        raise
    return code


def outcomes(codes: List[int], budget: int) -> List[str]:
    out: List[str] = []
    for c in codes:
        try:
            out.append(str(checked(c, budget)))
        except ToolError as e:
            out.append(repr(e))
        except (AgentError, ValueError) as e:
            out.append(f"{type(e).__name__}: {e!r}")
    return out


def argument_count(code: int) -> int:
    try:
        call_tool(code, 100)
        return 0
    except AgentError as e:
        return len(e.args)


try:
    checked(-7, 100)
except ValueError as e:
    escaped = [type(e).__name__, list(e.args)]
try:
    fetch(503)
except AgentError as e:
    escaped += [type(e).__name__, str(e), e.status]
result = [outcomes([200, 503, 300, -2], 250), argument_count(503), escaped, fetch(200)]
`

func TestNativeRaiseArguments(t *testing.T) {
	bothModes(t, func(t *testing.T, isolation host.Isolation) {
		e := nativeEngine(t, isolation, t.TempDir())
		resp := execNative(t, e, host.NativeEager, raiseArgumentsProgram, `{}`)
		want := `[["200", "ToolError('server', 503)", "BudgetExceeded: BudgetExceeded()", "ValueError: ValueError(-2)"], ` +
			`2, ["ValueError", [-7], "HttpError", "request failed", 503], 200]`
		expectRun(t, resp, want, []string{"call_tool", "checked", "outcomes", "fetch"},
			map[string]string{"argument_count": "ExceptAs"})
		if f := nativeEntry(t, resp, "outcomes"); f.Fallbacks != 0 {
			t.Errorf("outcomes fell back to CPython: %+v", f)
		}
	})
}
