// Command spine runs Python programs with Go tools.
//
//	spine run [flags] FILE|-
//	spine stubs [--manifest FILE] [--demo-tools] [--mcp FILE]
//	spine mcp [flags]
//	spine serve [flags]
//	spine resume FILE --approve|--deny MSG|--answer JSON [flags]
//	spine repl [--json] [flags]
//	spine check [--inproc] FILE|-
//
// Exit status: 0 when the program finished, 1 when it failed (raised, timed
// out, exceeded a limit), 2 on a usage or engine error, 3 when it stopped
// at a call that needs approval (the journal is written for `spine resume`).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `usage: spine run [flags] FILE|-
       spine stubs [--manifest FILE] [--demo-tools] [--mcp FILE]
       spine mcp [flags]
       spine serve [flags]
       spine resume FILE --approve|--deny MSG|--answer JSON [flags]
       spine repl [--json] [flags]
       spine check [--inproc] FILE|-

run: runs a Python program whose tools are Go functions ("spine run -h" for flags).
stubs: prints the tools as Python stubs for a model's prompt.
mcp: serves run_python to MCP clients, over stdio or streamable HTTP ("spine mcp -h").
serve: an HTTP JSON service running programs ("spine serve -h" for flags).
resume: continues a run that stopped for approval (exit 3) from its journal.
repl: runs programs one after another in one session (shared variables).
check: compiles a program without running it; prints FILE:LINE: message for a syntax error.
`

func main() {
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return run(args[1:], stdin, stdout, stderr)
	case "stubs":
		return stubs(args[1:], stdout, stderr)
	case "mcp":
		return serveMCP(args[1:], stdin, stdout, stderr)
	case "serve":
		return serveCmd(args[1:], stderr)
	case "resume":
		return resume(args[1:], stdout, stderr)
	case "repl":
		return repl(args[1:], stdin, stdout, stderr)
	case "check":
		return check(args[1:], stdin, stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "spine: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
}

const (
	exitOK      = 0
	exitProgram = 1
	exitUsage   = 2
	exitSuspend = 3 // the run waits for a decision: `spine resume` its journal
)

// parseFlags gives fs the usage line every command prints above its flags,
// then parses args; done says the command stops here with code (-h printed
// the usage: exitOK; a bad flag: exitUsage).
func parseFlags(fs *flag.FlagSet, args []string, usageLine string, stderr io.Writer) (code int, done bool) {
	fs.Usage = func() {
		fmt.Fprintln(stderr, usageLine)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, true
		}
		return exitUsage, true
	}
	return 0, false
}
