package mcpserve

import (
	"fmt"
	"strings"

	"github.com/spine-sandbox/spine/host"
)

// Description is run_python's description: what a program is, the rules it
// runs under (with the engine's limits) and the stubs of its tools.
func Description(engine *host.Engine, opts Options) string {
	limits := engine.Limits()
	var b strings.Builder
	b.WriteString("Runs a Python 3.11 program and returns its result. Write one program that does the whole task: " +
		"call the tools below as plain Python functions with keyword arguments, and use loops, conditions, " +
		"comprehensions, try/except and the standard library between the calls.\n\n")
	b.WriteString("Rules:\n")
	b.WriteString("- `inputs` is the dict given as \"inputs\" (default {}).\n")
	b.WriteString("- Assign the answer to `result`; it must be JSON data (dict, list, str, int, float, bool, None). " +
		"print() output comes back as stdout.\n")
	b.WriteString("- A tool's failure raises an exception at its call (RuntimeError unless its stub says otherwise): " +
		"catch it with try/except to recover.\n")
	if opts.PLM {
		b.WriteString("- Independent calls of read-only tools run in parallel by themselves: write plain sequential code.\n")
	}
	if strings.HasPrefix(engine.Isolation(), string(host.Sandbox)) {
		b.WriteString("- The program runs in a sandbox: no subprocesses, no network or sockets, no ctypes or other " +
			"native-memory modules, files only in its own scratch directory (the working directory and /tmp); a refused import raises ImportError, " +
			"and a refused system call ends the program.\n")
	}
	fmt.Fprintf(&b, "- Limits: %s of wall-clock time, %d tool calls, %d bytes of stdout, a result of %d bytes.\n",
		limits.Timeout, limits.ToolCalls, limits.StdoutBytes, limits.ResultBytes)
	b.WriteString("\nThe result's structured content is the whole response, with the trace of every tool call.\n")
	tools := engine.Tools()
	if len(tools) == 0 {
		b.WriteString("\nNo tools are available: the program computes on its inputs alone.\n")
		return b.String()
	}
	b.WriteString("\nTools:\n\n```python\n")
	b.WriteString(strings.TrimRight(engine.Stubs(), "\n"))
	b.WriteString("\n```\n")
	return b.String()
}
