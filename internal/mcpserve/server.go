// Package mcpserve makes an engine an MCP server: one tool, run_python,
// whose description carries the Python stubs of every tool the engine has
// and the rules of a program, so a model that speaks MCP writes one program
// that calls many tools ("code mode") instead of one tool call per turn.
package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spine-sandbox/spine/host"
)

// ToolName is the one tool the server offers.
const ToolName = "run_python"

// Options say how programs run.
type Options struct {
	PLM     bool   // start independent read-only calls in parallel
	Version string // the server's version, as the handshake reports it
}

// New is an MCP server whose run_python runs programs on engine. The
// server may be served over any transport, and to many sessions at once.
func New(engine *host.Engine, opts Options) *sdk.Server {
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	server := sdk.NewServer(&sdk.Implementation{Name: "spine", Version: version}, nil)
	server.AddTool(&sdk.Tool{
		Name:         ToolName,
		Title:        "Run a Python program that calls tools",
		Description:  Description(engine, opts),
		InputSchema:  inputSchema,
		OutputSchema: json.RawMessage(host.ResponseSchema),
		Annotations:  &sdk.ToolAnnotations{OpenWorldHint: &openWorld},
	}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return run(ctx, engine, opts, req.Params.Arguments), nil
	})
	return server
}

// openWorld: the program's tools may reach anything their servers reach.
var openWorld = true

var inputSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "code": {"type": "string", "description": "The Python 3.11 program."},
    "inputs": {"type": "object", "description": "The program's inputs: the dict it reads as ` + "`inputs`" + ` (default {})."}
  },
  "required": ["code"],
  "additionalProperties": false
}`)

type arguments struct {
	Code   string          `json:"code"`
	Inputs json.RawMessage `json:"inputs"`
}

// run executes one program. Its result is the program's value, stdout and
// error as text (what a model reads) and the whole response, call trace
// included, as structured content (host.ResponseSchema). A program that
// failed is an isError result: the model should see it and fix the program.
func run(ctx context.Context, engine *host.Engine, opts Options, raw json.RawMessage) *sdk.CallToolResult {
	var args arguments
	if err := json.Unmarshal(raw, &args); err != nil {
		return failure("bad arguments: " + err.Error())
	}
	resp, err := engine.Execute(ctx, host.Request{Source: args.Code, Inputs: args.Inputs, PLM: opts.PLM})
	var execErr *host.ExecError
	if resp == nil || (err != nil && !errors.As(err, &execErr)) {
		return failure(err.Error())
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: summary(resp)}},
		StructuredContent: resp, IsError: resp.Status != host.StatusOK}
}

func failure(message string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: message}}, IsError: true}
}

// summary is the response as a model reads it.
func summary(resp *host.Response) string {
	var b strings.Builder
	if resp.Status == host.StatusOK {
		fmt.Fprintf(&b, "result: %s\n", resp.Value)
	} else {
		fmt.Fprintf(&b, "status: %s\nerror: %s", resp.Status, resp.Error)
		if resp.Line > 0 {
			fmt.Fprintf(&b, " (line %d)", resp.Line)
		}
		b.WriteString("\n")
		if resp.Traceback != "" {
			fmt.Fprintf(&b, "%s\n", strings.TrimRight(resp.Traceback, "\n"))
		}
	}
	if resp.Stdout != "" {
		fmt.Fprintf(&b, "stdout:\n%s", resp.Stdout)
		if resp.StdoutTruncated {
			b.WriteString("\n[stdout truncated]")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
