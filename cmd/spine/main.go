// Command spine runs Python programs with Go tools.
//
//	spine run [flags] FILE|-
//	spine stubs [--manifest FILE] [--demo-tools]
//	spine check [--inproc] FILE|-
//
// Exit status: 0 when the program finished, 1 when it failed (raised, timed
// out, exceeded a limit), 2 on a usage or engine error.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `usage: spine run [flags] FILE|-
       spine stubs [--manifest FILE] [--demo-tools]
       spine check [--inproc] FILE|-

run: runs a Python program whose tools are Go functions ("spine run -h" for flags).
stubs: prints the tools as Python stubs for a model's prompt.
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
)
