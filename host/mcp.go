package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spine-sandbox/spine/internal/mcp"
)

// WithMCP gives the engine the tools of the MCP servers in an `mcpServers`
// configuration (the form agent stacks share):
//
//	{"mcpServers": {
//	  "files":  {"command": "files-mcp", "args": ["/srv"], "env": {"K": "V"}},
//	  "search": {"url": "https://search.example/mcp", "headers": {"Authorization": "Bearer T"}},
//	  "db":     {"command": "db-mcp", "tools": {"query": {"speculative": true, "reads": ["db"]}}}
//	}}
//
// New starts (or dials) every server once and lists its tools; each becomes
// a tool of the engine named after it (non-identifier characters become
// "_"; a name another tool or server has becomes server_tool), with its
// inputSchema checked before the call and its outputSchema as the stub's
// return type. A tool annotated readOnlyHint is speculative; "tools"
// overrides that and says what it reads and writes. A result maps to a
// Python value: structuredContent as JSON; otherwise None for no content,
// one block's value, or a list of the blocks' values (text as str, any other
// block as its MCP JSON object). A result with isError raises RuntimeError
// with its text in the program (a *ToolError whose Err is the
// *mcp.ToolError). The servers are shared by every execution, are stopped by
// Close, and a server that dies is restarted in the background: meanwhile
// its calls raise RuntimeError saying why it is down. New fails when a
// server cannot be started or listed within 20 s.
func WithMCP(configuration []byte) Option {
	return func(c *config) error {
		parsed, err := mcp.ParseConfig(configuration)
		if err != nil {
			return fmt.Errorf("spine: %w", err)
		}
		c.mcp = append(c.mcp, parsed)
		return nil
	}
}

// startMCP connects the configured servers and adds their tools to cfg.
func startMCP(cfg *config) ([]*mcp.Servers, error) {
	var started []*mcp.Servers
	for _, servers := range cfg.mcp {
		taken := map[string]bool{}
		for _, t := range cfg.tools {
			taken[t.Spec.Name] = true
		}
		s, err := mcp.Start(context.Background(), servers, func(name string) bool { return taken[name] })
		if err != nil {
			closeMCP(started)
			return nil, fmt.Errorf("spine: %w", err)
		}
		started = append(started, s)
		for _, t := range s.Tools() {
			cfg.tools = append(cfg.tools, mcpTool(t))
		}
	}
	return started, nil
}

func mcpTool(t mcp.Tool) Tool {
	spec := ToolSpec{Name: t.Name, Description: t.Description, Schema: t.Schema, Result: t.Result,
		Speculative: t.Speculative, Reads: t.Reads, Writes: t.Writes}
	return NewTool(spec, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		value, err := t.Call(ctx, args)
		var failed *mcp.ToolError
		if errors.As(err, &failed) {
			return nil, &ToolError{Type: RuntimeError, Message: failed.Message, Err: failed}
		}
		return value, err
	})
}

func closeMCP(servers []*mcp.Servers) {
	for _, s := range servers {
		s.Close()
	}
}
