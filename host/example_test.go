package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spine-sandbox/spine/host"
)

// A typed tool: the keyword arguments decode into a struct whose JSON Schema
// is derived from it, and the result is encoded as JSON.
func ExampleFunc() {
	type addArgs struct {
		X int `json:"x"`
		Y int `json:"y"`
	}
	add := host.Func("add", func(_ context.Context, a addArgs) (int, error) { return a.X + a.Y, nil },
		host.Describe("Add two integers."), host.Speculative())
	engine, err := host.New(host.WithTools(add), host.WithIsolation(host.Inproc))
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
	engine, err := host.New(host.WithTools(fetch), host.WithIsolation(host.Inproc))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	resp, err := engine.Execute(context.Background(), host.Request{Source: "x = 1\nfetch(url='a')"})
	fmt.Println(errors.Is(err, host.ErrGuest), resp.Error, resp.Line)
	// Output:
	// true RuntimeError: fetch: not found 2
}

// A stream: calls whose arguments are known start while the program arrives.
func ExampleEngine_Stream() {
	lookup := host.Func("lookup", func(_ context.Context, a struct {
		Key int `json:"key"`
	}) (int, error) {
		return 7 * a.Key, nil
	}, host.Speculative())
	engine, err := host.New(host.WithTools(lookup), host.WithIsolation(host.Inproc))
	if err != nil {
		panic(err)
	}
	defer engine.Close()
	stream, err := engine.Stream(context.Background(), host.Request{Inputs: json.RawMessage(`{"k": 6}`)})
	if err != nil {
		panic(err)
	}
	stream.Feed([]byte("a = lookup(key=inputs['k'])\n"))
	stream.Feed([]byte("result = a"))
	resp, err := stream.Finish()
	if err != nil {
		panic(err)
	}
	fmt.Println(string(resp.Value))
	// Output:
	// 42
}
