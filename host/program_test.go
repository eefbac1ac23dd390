package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
)

// Two lookups PLM runs in parallel, then arithmetic on the inputs.
const compiledProgram = `a = lookup(key=inputs["n"])
b = lookup(key=inputs["n"] + 1)
result = [a, b, inputs["n"] * 2]
`

// A program compiled once runs many times at once, with different inputs,
// in both isolations, each execution getting its own answer and the PLM
// form Compile made.
func TestCompileOnceExecuteManyConcurrently(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t)
		program, err := e.Compile(context.Background(), compiledProgram, host.CompileOptions{PLM: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(program.Transformed(), "lookup") || program.Transformed() == compiledProgram {
			t.Fatalf("PLM form: %q", program.Transformed())
		}
		var wg sync.WaitGroup
		failures := make(chan string, 8)
		for n := 1; n <= 8; n++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp, err := e.Execute(context.Background(), host.Request{Program: program,
					Inputs: json.RawMessage(fmt.Sprintf(`{"n": %d}`, n))})
				want := fmt.Sprintf("[%d, %d, %d]", 7*n, 7*(n+1), 2*n)
				switch {
				case err != nil:
					failures <- fmt.Sprintf("n=%d: %v", n, err)
				case string(resp.Value) != want:
					failures <- fmt.Sprintf("n=%d: value %s, want %s", n, resp.Value, want)
				case resp.Transformed != program.Transformed():
					failures <- fmt.Sprintf("n=%d: transformed %q", n, resp.Transformed)
				}
			}()
		}
		wg.Wait()
		close(failures)
		for failure := range failures {
			t.Error(failure)
		}
	})
}

// A program that does not compile is refused by Compile, before anything
// runs, with Python's message and the line.
func TestCompileReportsTheSyntaxErrorsLine(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t)
		_, err := e.Compile(context.Background(), "x = 1\nif x\n    y = 2\n", host.CompileOptions{})
		var syntax *host.SyntaxError
		if !errors.As(err, &syntax) || !errors.Is(err, host.ErrSyntax) {
			t.Fatalf("Compile: %v", err)
		}
		if syntax.Line != 2 || !strings.HasPrefix(syntax.Message, "SyntaxError:") {
			t.Fatalf("syntax error: line %d, %q", syntax.Line, syntax.Message)
		}
	})
}

// A Program made by one engine runs correctly on another whose tools
// differ (it is compiled again there, from its source, for those tools);
// a request cannot name both a Program and a Source, and a stream refuses
// a Program.
func TestProgramOnAnotherEngine(t *testing.T) {
	compiler := engineIn(t, host.Inproc)
	program, err := compiler.Compile(context.Background(), compiledProgram, host.CompileOptions{PLM: true})
	if err != nil {
		t.Fatal(err)
	}
	seven := host.NewTool(host.ToolSpec{Name: "lookup", Speculative: true}, func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
		var a struct{ Key int }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		return json.RawMessage(fmt.Sprint(100 + a.Key)), nil
	})
	other, err := host.New(host.WithTools(seven), host.WithIsolation(host.Sandbox),
		host.WithSandbox(host.SandboxOptions{Binary: testenv.GuestBinary(t), Prefork: 1}))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	resp, err := other.Execute(context.Background(), host.Request{Program: program, Inputs: json.RawMessage(`{"n": 3}`)})
	if err != nil || string(resp.Value) != "[103, 104, 6]" {
		t.Fatalf("on another engine: %v, %+v", err, resp)
	}
	_, err = other.Execute(context.Background(), host.Request{Program: program, Source: "result = 1"})
	if !errors.Is(err, host.ErrBadRequest) {
		t.Fatalf("Program and Source: %v", err)
	}
	_, err = other.Stream(context.Background(), host.Request{Program: program})
	if !errors.Is(err, host.ErrBadRequest) {
		t.Fatalf("a stream given a Program: %v", err)
	}
}
