package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/spine-sandbox/spine/host"
)

// stubs prints the tools of --manifest, --demo-tools and --mcp as Python
// stubs for a model's prompt (host.Stubs); it starts no engine unless MCP
// servers are to be listed.
func stubs(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("spine stubs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	fs.BoolVar(&f.demoTools, "demo-tools", false, "include the demo tools echo, lookup, sleep, fail and emit")
	fs.StringVar(&f.manifest, "manifest", "", "JSON file listing tool specs, as for spine run (\"result\": the JSON Schema of the value returned)")
	fs.StringVar(&f.mcp, "mcp", "", mcpFlagHelp+" (starts them, and an engine, to list their tools)")
	if code, done := parseFlags(fs, args, "usage: spine stubs [--manifest FILE] [--demo-tools] [--mcp FILE]", stderr); done {
		return code
	}
	if fs.NArg() != 0 || (f.manifest == "" && !f.demoTools && f.mcp == "") {
		fs.Usage()
		return exitUsage
	}
	if f.mcp != "" {
		return mcpStubs(f, stdout, stderr)
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

// mcpStubs prints the stubs of an engine with the MCP servers' tools too:
// their names (a clash becomes server_tool) are the engine's to give.
func mcpStubs(f runFlags, stdout, stderr io.Writer) int {
	options, err := toolOptions(f)
	if err == nil {
		var engine *host.Engine
		if engine, err = host.New(options...); err == nil {
			defer engine.Close()
			io.WriteString(stdout, engine.Stubs())
			return exitOK
		}
	}
	fmt.Fprintln(stderr, "spine stubs:", err)
	return exitUsage
}
