package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// The default: every execution runs in a freshly forked, locked-down child
// process (the sandbox). The engine finds spine-guest through
// SandboxOptions.Binary, $SPINE_GUEST, beside the executable, or in bin/ or
// build/ of the checkout `go run`/`go test` runs in; New says what to run
// when it finds none.
func Example() {
	engine, err := host.New() // host.Sandbox is the default isolation
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{
		Source: "import os\ntry:\n    os.listdir('/home')\n    seen = 'files'\nexcept OSError as e:\n    seen = type(e).__name__\nresult = {'isolation': 'child', 'home': seen}",
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Isolation, string(resp.Value))
	// Output:
	// sandbox {"isolation": "child", "home": "FileNotFoundError"}
}

// A typed tool: the keyword arguments decode into a struct whose JSON Schema
// is derived from it, and the result is encoded as JSON.
func ExampleFunc() {
	type addArgs struct {
		X int `json:"x"`
		Y int `json:"y"`
	}
	add := host.Func("add", func(_ context.Context, a addArgs) (int, error) { return a.X + a.Y, nil },
		host.Describe("Add two integers."), host.Speculative())
	engine, err := host.New(host.WithTools(add))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{
		Source: "print('adding')\nresult = add(x=inputs['x'], y=2)",
		Inputs: json.RawMessage(`{"x": 40}`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(resp.Stdout)
	fmt.Println(string(resp.Value), resp.Calls[0].Tool, string(resp.Calls[0].Args))
	// Output:
	// adding
	// 42 add {"x":40,"y":2}
}

// A raw JSON tool; its error is a RuntimeError in the program, and an
// uncaught one is an ErrGuest with the program's line.
func ExampleNewTool() {
	fetch := host.NewTool(host.ToolSpec{Name: "fetch", Speculative: true},
		func(_ context.Context, args json.RawMessage) (json.RawMessage, error) {
			return nil, errors.New("fetch: not found")
		})
	engine, err := host.New(host.WithTools(fetch))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{Source: "x = 1\nfetch(url='a')"})
	fmt.Println(errors.Is(err, host.ErrGuest), resp.Error, resp.Line)
	// Output:
	// true RuntimeError: fetch: not found 2
}

var errNoUser = errors.New("no such user")

// A tool's error can name the exception the program sees; the program can
// catch it, and when it does not, errors.As reaches the tool's own error.
func ExampleToolError() {
	user := host.Func("user", func(_ context.Context, a struct {
		ID int `json:"id"`
	}) (string, error) {
		if a.ID != 1 {
			return "", &host.ToolError{Type: host.KeyError, Message: fmt.Sprintf("no user %d", a.ID), Err: errNoUser}
		}
		return "ada", nil
	})
	engine, err := host.New(host.WithTools(user))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	ctx := context.Background()
	resp, _ := engine.Execute(ctx, host.Request{Source: "try:\n    name = user(id=2)\nexcept KeyError:\n    name = user(id=1)\nresult = name"})
	fmt.Println(string(resp.Value))

	resp, err = engine.Execute(ctx, host.Request{Source: "result = user(id=7)"})
	var toolErr *host.ToolError
	fmt.Println(resp.Error)
	fmt.Println(errors.As(err, &toolErr), toolErr.Type, errors.Is(err, errNoUser), errors.Is(err, host.ErrGuest))
	// Output:
	// "ada"
	// KeyError: 'no user 7'
	// true KeyError true true
}

// Failures are told apart with errors.Is: here a timeout (a request may
// shorten the engine's limits, never lengthen them) and a cancellation.
func ExampleExecError() {
	engine, err := host.New()
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{
		Source: "while True:\n    pass",
		Limits: host.Limits{Timeout: 100 * time.Millisecond},
	})
	fmt.Println(resp.Status, errors.Is(err, host.ErrTimeout), errors.Is(err, context.DeadlineExceeded))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = engine.Execute(ctx, host.Request{Source: "result = 1"})
	fmt.Println(errors.Is(err, context.Canceled))
	// Output:
	// timeout true true
	// true
}

// Cancelling the context stops the program wherever it is, in a tool too:
// the tool sees its context end, and the program goes no further.
func ExampleEngine_Execute_cancel() {
	ctx, cancel := context.WithCancel(context.Background())
	wait := host.Func("wait_for_approval", func(ctx context.Context, _ struct{}) (bool, error) {
		cancel() // the caller gives up while the tool waits
		<-ctx.Done()
		return false, ctx.Err()
	})
	engine, err := host.New(host.WithTools(wait))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(ctx, host.Request{Source: "ok = wait_for_approval()\nprint('never')"})
	fmt.Println(resp.Status, errors.Is(err, context.Canceled), resp.Stdout == "")
	// Output:
	// cancelled true true
}

// An effectful tool reports what it did with Emit; the values come back in
// order in Response.Emitted.
func ExampleEmit() {
	send := host.Func("send_email", func(ctx context.Context, a struct {
		To string `json:"to"`
	}) (string, error) {
		receipt, _ := json.Marshal(map[string]string{"sent_to": a.To})
		if _, err := host.Emit(ctx, receipt); err != nil {
			return "", err
		}
		return "queued", nil
	}, host.Writes("mailbox"))
	engine, err := host.New(host.WithTools(send))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{
		Source: "result = [send_email(to=a) for a in inputs['to']]",
		Inputs: json.RawMessage(`{"to": ["ada@example.com", "bob@example.com"]}`),
	})
	if err != nil {
		panic(err)
	}
	for _, e := range resp.Emitted {
		fmt.Println(string(e))
	}
	// Output:
	// {"sent_to":"ada@example.com"}
	// {"sent_to":"bob@example.com"}
}

// Request.Tools gives one program a subset of the engine's tools; the rest
// do not exist for it.
func ExampleRequest_tools() {
	read := host.Func("read_file", func(_ context.Context, _ struct{}) (string, error) { return "data", nil }, host.Speculative())
	remove := host.Func("delete_file", func(_ context.Context, _ struct{}) (bool, error) { return true, nil })
	engine, err := host.New(host.WithTools(read, remove))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, _ := engine.Execute(context.Background(), host.Request{
		Source: "print(read_file())\ndelete_file()",
		Tools:  []string{"read_file"},
	})
	fmt.Print(resp.Stdout)
	fmt.Println(resp.Error)
	// Output:
	// data
	// NameError: name 'delete_file' is not defined
}

// A stream: calls whose arguments are known start while the program
// arrives (from a model, say); Finish runs it.
func ExampleEngine_Stream() {
	lookup := host.Func("lookup", func(_ context.Context, a struct {
		Key int `json:"key"`
	}) (int, error) {
		return 7 * a.Key, nil
	}, host.Speculative())
	engine, err := host.New(host.WithTools(lookup))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	stream, err := engine.Stream(context.Background(), host.Request{Inputs: json.RawMessage(`{"k": 6}`)})
	if err != nil {
		panic(err)
	}
	for _, chunk := range []string{"a = lookup(ke", "y=inputs['k'])\n", "result = a"} {
		if err := stream.Feed([]byte(chunk)); err != nil {
			panic(err)
		}
	}
	resp, err := stream.Finish()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(resp.Value), resp.Calls[0].Early)
	// Output:
	// 42 true
}

// In process: fastest, and no security boundary; for trusted code only.
func ExampleWithIsolation() {
	engine, err := host.New(host.WithIsolation(host.Inproc))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{Source: "result = sum(range(10))"})
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.Isolation, string(resp.Value))
	// Output:
	// inproc 45
}

// Request.Stdout receives the program's output while it runs, each line as
// it ends: here before the slow tool returns.
func ExampleRequest_stdout() {
	slow := host.Func("slow_step", func(ctx context.Context, _ struct{}) (string, error) {
		fmt.Println("(tool runs)")
		return "done", nil
	})
	engine, err := host.New(host.WithTools(slow))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{
		Source: "print('step 1 of 2')\nresult = slow_step()\nprint('finished')",
		Stdout: os.Stdout,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(resp.Value))
	// Output:
	// step 1 of 2
	// (tool runs)
	// finished
	// "done"
}

// Compile once, run many times: syntax errors surface before anything
// runs, and every execution of the Program skips parsing and PLM's rewrite.
func ExampleEngine_Compile() {
	double := host.Func("double", func(_ context.Context, a struct {
		N int `json:"n"`
	}) (int, error) {
		return 2 * a.N, nil
	}, host.Speculative())
	engine, err := host.New(host.WithTools(double))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	_, err = engine.Compile(context.Background(), "result = double(n=inputs['n']\n", host.CompileOptions{})
	var syntax *host.SyntaxError
	if errors.As(err, &syntax) {
		fmt.Println("line", syntax.Line, syntax.Message)
	}
	program, err := engine.Compile(context.Background(), "result = [double(n=inputs['n']), double(n=inputs['n'] + 1)]",
		host.CompileOptions{PLM: true})
	if err != nil {
		panic(err)
	}
	for n := 1; n <= 3; n++ {
		resp, err := engine.Execute(context.Background(), host.Request{Program: program,
			Inputs: json.RawMessage(fmt.Sprintf(`{"n": %d}`, n))})
		if err != nil {
			panic(err)
		}
		fmt.Println(string(resp.Value))
	}
	// Output:
	// line 1 SyntaxError: '(' was never closed
	// [2, 4]
	// [4, 6]
	// [6, 8]
}
