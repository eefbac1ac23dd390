package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/spine-sandbox/spine/host"
)

// check compiles FILE (host.Engine.Compile) without running it: exit 0 and
// "ok" when it compiles, 1 with "FILE:LINE: message" when it does not.
func check(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spine check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	inproc := fs.Bool("inproc", false, "compile in process (trusted code only) instead of in the sandbox")
	if code, done := parseFlags(fs, args, "usage: spine check [--inproc] FILE|-", stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	name := fs.Arg(0)
	var source []byte
	var err error
	if name == "-" {
		source, err = io.ReadAll(stdin)
	} else {
		source, err = os.ReadFile(name)
	}
	if err != nil {
		fmt.Fprintln(stderr, "spine check:", err)
		return exitUsage
	}
	isolation := host.Sandbox
	if *inproc {
		isolation = host.Inproc
	}
	engine, err := host.New(host.WithIsolation(isolation))
	if err != nil {
		fmt.Fprintln(stderr, "spine check:", err)
		return exitUsage
	}
	defer engine.Close()
	_, err = engine.Compile(context.Background(), string(source), host.CompileOptions{})
	var syntax *host.SyntaxError
	switch {
	case errors.As(err, &syntax):
		fmt.Fprintf(stdout, "%s:%d: %s\n", name, syntax.Line, syntax.Message)
		return exitProgram
	case err != nil:
		fmt.Fprintln(stderr, "spine check:", err)
		return exitUsage
	}
	fmt.Fprintln(stdout, "ok")
	return exitOK
}
