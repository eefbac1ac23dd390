package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spine-sandbox/spine/internal/bridge"
)

// Tool is an upstream tool made ready to be a guest function.
type Tool struct {
	Name        string // the Python name the program calls
	Server      string // the configured server's name
	Upstream    string // the tool's own name on that server
	Description string
	Schema      json.RawMessage // its inputSchema, which the host enforces before the call
	Result      json.RawMessage // its outputSchema, if any (for the stubs)
	Speculative bool            // readOnlyHint, unless the configuration says otherwise
	Reads       []string
	Writes      []string
	Call        func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)
}

// ToolError is a result the server marked isError: the tool ran and failed.
type ToolError struct {
	Server, Tool string
	Message      string // the result's text
}

func (e *ToolError) Error() string { return e.Message }

// Servers are the connected upstream servers of one engine.
type Servers struct {
	upstreams []*upstream
	tools     []Tool
}

// Start connects to every configured server (in parallel), lists its tools
// and names them. taken reports the names other tools of the engine already
// have: an upstream tool whose name is taken, or that two servers share, is
// named server_tool instead.
func Start(ctx context.Context, cfg *Config, taken func(string) bool) (*Servers, error) {
	s := &Servers{}
	for _, name := range cfg.names() {
		s.upstreams = append(s.upstreams, newUpstream(name, cfg.Servers[name]))
	}
	listed := make([][]*sdk.Tool, len(s.upstreams))
	errs := make([]error, len(s.upstreams))
	var wg sync.WaitGroup
	for i, u := range s.upstreams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if errs[i] = u.start(ctx); errs[i] == nil {
				listed[i], errs[i] = u.list(ctx)
			}
			if errs[i] != nil {
				errs[i] = fmt.Errorf("mcp server %q: %w", u.name, errs[i])
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.name(listed, taken); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// list pages through the server's tools.
func (u *upstream) list(ctx context.Context) ([]*sdk.Tool, error) {
	u.mu.Lock()
	c := u.current
	u.mu.Unlock()
	var tools []*sdk.Tool
	for tool, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing tools: %w", err)
		}
		tools = append(tools, tool)
	}
	return tools, nil
}

// name makes the guest functions: each tool under its Python name, or
// server_tool when that name is taken or shared.
func (s *Servers) name(listed [][]*sdk.Tool, taken func(string) bool) error {
	count := map[string]int{}
	for _, tools := range listed {
		for _, tool := range tools {
			count[pythonName(tool.Name)]++
		}
	}
	chosen := map[string]string{} // Python name -> server/tool, to report a clash
	for i, u := range s.upstreams {
		seen := map[string]bool{}
		for _, tool := range listed[i] {
			seen[tool.Name] = true
			name := pythonName(tool.Name)
			if count[name] > 1 || taken(name) {
				name = pythonName(u.name + "_" + tool.Name)
			}
			where := fmt.Sprintf("%s/%s", u.name, tool.Name)
			if other, dup := chosen[name]; dup || taken(name) {
				if !dup {
					other = "another tool of the engine"
				}
				return fmt.Errorf("mcp: %s and %s would both be called %s()", where, other, name)
			}
			chosen[name] = where
			t, err := u.tool(name, tool)
			if err != nil {
				return err
			}
			s.tools = append(s.tools, t)
		}
		for _, unknown := range sortedKeys(u.cfg.Tools) {
			if !seen[unknown] {
				return fmt.Errorf("mcp config: server %q has no tool %q to override", u.name, unknown)
			}
		}
	}
	return nil
}

// tool makes one upstream tool a guest function.
func (u *upstream) tool(name string, tool *sdk.Tool) (Tool, error) {
	t := Tool{Name: name, Server: u.name, Upstream: tool.Name, Description: tool.Description}
	if tool.Description == "" {
		t.Description = tool.Title
	}
	var err error
	if t.Schema, err = json.Marshal(tool.InputSchema); err != nil {
		return Tool{}, fmt.Errorf("mcp server %q: tool %q: inputSchema: %w", u.name, tool.Name, err)
	}
	if tool.OutputSchema != nil {
		if t.Result, err = json.Marshal(tool.OutputSchema); err != nil {
			return Tool{}, fmt.Errorf("mcp server %q: tool %q: outputSchema: %w", u.name, tool.Name, err)
		}
	}
	// Only a read-only tool may run before the program reaches its call (or
	// when it never does): an idempotent one still changes something once.
	t.Speculative = tool.Annotations != nil && tool.Annotations.ReadOnlyHint
	if override, ok := u.cfg.Tools[tool.Name]; ok {
		if override.Speculative != nil {
			t.Speculative = *override.Speculative
		}
		if override.Reads != nil {
			t.Reads = *override.Reads
		}
		if override.Writes != nil {
			t.Writes = *override.Writes
		}
	}
	upstreamName := tool.Name
	t.Call = func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		result, err := u.call(ctx, upstreamName, args)
		if err != nil {
			return nil, err
		}
		if result.IsError {
			return nil, &ToolError{Server: u.name, Tool: upstreamName, Message: errorText(result)}
		}
		return value(result)
	}
	return t, nil
}

// Tools are the upstream tools, server by server in name order, each
// server's in the order it listed them.
func (s *Servers) Tools() []Tool { return s.tools }

// WaitReady waits until every server is up (after a restart).
func (s *Servers) WaitReady(ctx context.Context) error {
	for _, u := range s.upstreams {
		if err := u.waitReady(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Close stops every server; calls made afterwards fail.
func (s *Servers) Close() {
	if s == nil {
		return
	}
	var wg sync.WaitGroup
	for _, u := range s.upstreams {
		wg.Add(1)
		go func() { defer wg.Done(); u.close() }()
	}
	wg.Wait()
}

// pythonName is the Python name of an MCP name: each character outside
// [A-Za-z0-9_] becomes "_" ("get-weather" is get_weather), a leading
// digit gets a "_" before it, and a keyword or a name the convention keeps
// ("inputs", "result") a "_" after it.
func pythonName(name string) string {
	var b strings.Builder
	for i, r := range name {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		digit := r >= '0' && r <= '9'
		switch {
		case letter || (digit && i > 0):
			b.WriteRune(r)
		case digit:
			b.WriteString("_")
			b.WriteRune(r)
		default:
			b.WriteString("_")
		}
	}
	out := b.String()
	if out == "" {
		out = "_"
	}
	if !bridge.IsToolName(out) {
		out += "_"
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}
