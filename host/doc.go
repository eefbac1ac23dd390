// Package host is spine's public Go API: hand an Engine a Python program, its
// inputs and a set of tools, and get back the program's result, its stdout and
// a trace of every tool call it made.
//
// In the guest every tool is a plain keyword-only Python function named after
// it (`x = lookup(key=inputs["item"])`); every call crosses back into Go and
// runs the tool's handler with the execution's context. A tool's error is
// raised in the program at the call site: RuntimeError(err.Error()), or the
// exception a *ToolError names (ValueError, KeyError, PermissionError,
// TimeoutError, LookupError). When the program does not catch it, the
// *ExecError that Execute returns unwraps to the tool's own error, so
// errors.As and errors.Is reach it.
//
// A program run many times can be compiled once (Engine.Compile): its
// syntax errors come back with their line before anything runs, and every
// execution of the *Program (Request.Program) runs the compiled code.
// Executions may run concurrently, in either isolation; in process they
// overlap wherever they wait in tools.
//
// JSON crosses every boundary raw: inputs, tool arguments, tool results and the
// program's result are json.RawMessage, never decoded into float64 on the way,
// so an integer of any size, 1e16 and 1.0 arrive exactly as they were written.
package host
