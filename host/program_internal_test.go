package host

import (
	"context"
	"testing"

	"github.com/spine-sandbox/spine/internal/testenv"
)

// The guest runs the code Compile made, not the source again: a Program
// whose compiled code is another program's gives that program's answer.
// (The swap stands for work the guest no longer does; nothing outside
// this package can make such a Program.)
func TestTheGuestRunsTheCompiledCode(t *testing.T) {
	for _, level := range []Isolation{Inproc, Sandbox} {
		t.Run(string(level), func(t *testing.T) {
			opts := []Option{WithIsolation(level)}
			if level == Sandbox {
				opts = append(opts, WithSandbox(SandboxOptions{Binary: testenv.GuestBinary(t), Prefork: 1}))
			}
			e, err := New(opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			one, err := e.Compile(context.Background(), "result = 1", CompileOptions{})
			if err != nil {
				t.Fatal(err)
			}
			two, err := e.Compile(context.Background(), "result = 2", CompileOptions{})
			if err != nil {
				t.Fatal(err)
			}
			swapped := *one
			swapped.compiled.Code = two.compiled.Code
			resp, err := e.Execute(context.Background(), Request{Program: &swapped})
			if err != nil || string(resp.Value) != "2" {
				t.Fatalf("%v, %+v", err, resp)
			}
		})
	}
}
