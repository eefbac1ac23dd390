package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

// manifestSpec is one entry of a --manifest file: a tool spec, plus the
// command that implements it (or none, for a demo tool of that name).
type manifestSpec struct {
	host.ToolSpec
	Command []string `json:"command"`
}

func collectTools(f runFlags) ([]host.Tool, error) {
	demo := map[string]host.Tool{}
	for _, t := range demotools.Tools() {
		demo[t.Spec.Name] = t
	}
	var tools []host.Tool
	chosen := map[string]bool{}
	if f.demoTools {
		for _, t := range demotools.Tools() {
			tools = append(tools, t)
			chosen[t.Spec.Name] = true
		}
	}
	if f.manifest == "" {
		return tools, nil
	}
	data, err := os.ReadFile(f.manifest)
	if err != nil {
		return nil, fmt.Errorf("cannot read --manifest: %w", err)
	}
	var specs []manifestSpec
	if err := json.Unmarshal(data, &specs); err != nil {
		return nil, fmt.Errorf("--manifest %s: %w", f.manifest, err)
	}
	for _, spec := range specs {
		if chosen[spec.Name] {
			return nil, fmt.Errorf("--manifest: tool %q given twice", spec.Name)
		}
		chosen[spec.Name] = true
		if len(spec.Command) == 0 {
			t, ok := demo[spec.Name]
			if !ok {
				return nil, fmt.Errorf("--manifest: tool %q has no command and is not a demo tool", spec.Name)
			}
			tools = append(tools, t)
			continue
		}
		tools = append(tools, host.NewTool(spec.ToolSpec, commandHandler(spec.Name, spec.Command)))
	}
	return tools, nil
}

// commandHandler runs argv with the JSON arguments on stdin; its stdout is the
// JSON value. A non-zero exit is the tool's error, with its stderr as message.
func commandHandler(name string, argv []string) host.Handler {
	return func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdin = bytes.NewReader(args)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			message := strings.TrimSpace(errOut.String())
			if message == "" {
				message = err.Error()
			}
			return nil, fmt.Errorf("%s: %s", name, message)
		}
		value := bytes.TrimSpace(out.Bytes())
		if len(value) == 0 {
			return json.RawMessage("null"), nil
		}
		if !json.Valid(value) {
			return nil, errors.New(name + ": the command did not print a JSON value")
		}
		return value, nil
	}
}

const mcpFlagHelp = `JSON file of MCP servers whose tools the program may call: {"mcpServers": {NAME: {"command", "args", "env"} or {"url", "headers"}}}`

// toolOptions are the engine options giving the tools of --demo-tools,
// --manifest and --mcp.
func toolOptions(f runFlags) ([]host.Option, error) {
	tools, err := collectTools(f)
	if err != nil {
		return nil, err
	}
	options := []host.Option{host.WithTools(tools...)}
	if f.mcp == "" {
		return options, nil
	}
	data, err := os.ReadFile(f.mcp)
	if err != nil {
		return nil, fmt.Errorf("cannot read --mcp: %w", err)
	}
	return append(options, host.WithMCP(data)), nil
}
