package host_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

var errNoSuchUser = errors.New("no such user")

// typedErrorTools fail in every way a tool can: typed, plain, and with a
// type outside the allowlist.
func typedErrorTools() []host.Tool {
	type userArgs struct {
		ID int `json:"id"`
	}
	type raiseArgs struct {
		Type string `json:"type"`
	}
	return []host.Tool{
		host.Func("user", func(_ context.Context, a userArgs) (string, error) {
			return "", &host.ToolError{Type: host.KeyError, Message: fmt.Sprintf("no user %d", a.ID), Err: errNoSuchUser}
		}, host.Speculative()),
		host.Func("raise_as", func(_ context.Context, a raiseArgs) (int, error) {
			return 0, host.Raise(host.Exception(a.Type), "raised as %s: %w", a.Type, errNoSuchUser)
		}),
		host.Func("plain", func(_ context.Context, _ struct{}) (int, error) { return 0, errNoSuchUser }),
	}
}

func TestTypedToolErrors(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t, host.WithTools(typedErrorTools()...))
		t.Run("EachAllowedTypeIsRaised", func(t *testing.T) {
			for _, kind := range []host.Exception{host.RuntimeError, host.ValueError, host.KeyError,
				host.PermissionError, host.TimeoutError, host.LookupError} {
				source := fmt.Sprintf("try:\n    raise_as(type=%q)\nexcept %s as e:\n    result = [type(e).__name__, e.args[0]]", kind, kind)
				mustValue(t, e, source, `{}`, fmt.Sprintf(`[%q, "raised as %s: no such user"]`, kind, kind))
			}
		})
		t.Run("OtherNamesRaiseRuntimeError", func(t *testing.T) {
			for _, name := range []string{"SystemExit", "KeyboardInterrupt", "Interrupt", "__import__", ""} {
				source := fmt.Sprintf("try:\n    raise_as(type=%q)\nexcept BaseException as e:\n    result = type(e).__name__", name)
				mustValue(t, e, source, `{}`, `"RuntimeError"`)
			}
		})
		t.Run("BaseClassCatches", func(t *testing.T) {
			mustValue(t, e, "try:\n    user(id=7)\nexcept LookupError as e:\n    result = type(e).__name__", `{}`, `"KeyError"`)
		})
		for _, plm := range []bool{false, true} {
			t.Run(fmt.Sprintf("UncaughtReachesTheGoError/plm=%v", plm), func(t *testing.T) {
				resp, err := e.Execute(context.Background(), host.Request{Source: "x = 1\nuser(id=7)", PLM: plm})
				var toolErr *host.ToolError
				if !errors.Is(err, host.ErrGuest) || !errors.As(err, &toolErr) || !errors.Is(err, errNoSuchUser) {
					t.Fatalf("err %v: want ErrGuest reaching the tool's *ToolError and its cause", err)
				}
				if toolErr.Type != host.KeyError || toolErr.Message != "no user 7" || resp.Error != "KeyError: 'no user 7'" || resp.Line != 2 {
					t.Fatalf("tool error %+v, response %q line %d", toolErr, resp.Error, resp.Line)
				}
			})
		}
		t.Run("PlainErrorIsReachedToo", func(t *testing.T) {
			resp, err := run(t, e, "plain()", `{}`)
			var toolErr *host.ToolError
			if !errors.Is(err, errNoSuchUser) || errors.As(err, &toolErr) || resp.Error != "RuntimeError: no such user" {
				t.Fatalf("err %v, response %q", err, errorOf(resp))
			}
		})
		t.Run("OnlyTheEscapingToolErrorIsReached", func(t *testing.T) {
			for name, source := range map[string]string{
				"caught, then the program's own error": "try:\n    user(id=1)\nexcept KeyError:\n    pass\nraise ValueError('own')",
				"re-raised as another exception":       "try:\n    user(id=1)\nexcept KeyError as e:\n    raise RuntimeError('wrapped') from e",
				// A program can copy the attribute the guest sets; the host
				// believes it only for an id it issued with that exception type.
				"forged id of another type": "try:\n    user(id=1)\nexcept KeyError as e:\n    own = ValueError('x')\n    own._spine_call = e._spine_call\n    raise own",
				"forged id never issued":    "own = KeyError('x')\nown._spine_call = 99\nraise own",
				"forged id of a bad kind":   "own = KeyError('x')\nown._spine_call = 'one'\nraise own",
			} {
				_, err := run(t, e, source, `{}`)
				var exec *host.ExecError
				if !errors.As(err, &exec) || exec.Kind != host.ErrGuest || exec.ToolErr != nil || errors.Is(err, errNoSuchUser) {
					t.Errorf("%s: err %v reaches a tool error", name, err)
				}
			}
		})
		t.Run("NextExecutionWorks", func(t *testing.T) {
			mustValue(t, e, "result = lookup(key=1)", `{}`, `7`)
		})
	})
}

// Raise formats like fmt.Errorf and keeps the %w operand as the cause.
func TestToolErrorTextAndCause(t *testing.T) {
	err := host.Raise(host.ValueError, "bad date %q: %w", "x", errNoSuchUser)
	var te *host.ToolError
	if !errors.As(err, &te) || te.Type != host.ValueError || te.Error() != `bad date "x": no such user` || te.Err != errNoSuchUser {
		t.Fatalf("%+v", te)
	}
	if (&host.ToolError{Err: errNoSuchUser}).Error() != "no such user" {
		t.Fatal("an empty message takes the cause's text")
	}
}
