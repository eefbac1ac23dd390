package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/spine-sandbox/spine/host"
)

// stubs prints the tools of --manifest (and --demo-tools) as Python stubs
// for a model's prompt (host.Stubs); it starts no engine.
func stubs(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spine stubs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	fs.BoolVar(&f.demoTools, "demo-tools", false, "include the demo tools echo, lookup, sleep, fail and emit")
	fs.StringVar(&f.manifest, "manifest", "", "JSON file listing tool specs, as for spine run (\"result\": the JSON Schema of the value returned)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: spine stubs [--manifest FILE] [--demo-tools]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() != 0 || (f.manifest == "" && !f.demoTools) {
		fs.Usage()
		return exitUsage
	}
	tools, err := collectTools(f)
	if err != nil {
		fmt.Fprintln(stderr, "spine stubs:", err)
		return exitUsage
	}
	specs := make([]host.ToolSpec, len(tools))
	for i, t := range tools {
		specs[i] = t.Spec
	}
	io.WriteString(stdout, host.Stubs(specs))
	return exitOK
}
