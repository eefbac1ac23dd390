// Package mcp connects an engine to upstream MCP servers: it reads the
// common `mcpServers` configuration, starts or dials each server once, lists
// its tools and turns every tool into a guest function whose calls go to
// that server (the official Go SDK is the client). The host package wraps
// it (host.WithMCP); this package knows nothing of the engine.
package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
)

// Config is the `mcpServers` configuration agent stacks share:
//
//	{"mcpServers": {
//	  "files":  {"command": "npx", "args": ["-y", "server-files", "/tmp"], "env": {"K": "V"}},
//	  "search": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ..."}},
//	  "db":     {"command": "db-mcp", "tools": {"query": {"speculative": true, "reads": ["db"]}}}
//	}}
//
// A server is a command (stdio) or a URL (streamable HTTP), never both.
// "tools" is spine's own addition: per upstream tool, it overrides what the
// annotations say (speculative, reads, writes).
type Config struct {
	Servers map[string]ServerConfig `json:"mcpServers"`
}

// ServerConfig is one upstream server.
type ServerConfig struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Dir     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Tools overrides, by upstream tool name, what its annotations imply.
	Tools map[string]ToolOverride `json:"tools,omitempty"`
}

// ToolOverride says more about an upstream tool than its annotations do.
// A nil field keeps what the annotations give (speculative when
// readOnlyHint; reads and writes everything).
type ToolOverride struct {
	Speculative *bool     `json:"speculative,omitempty"`
	Reads       *[]string `json:"reads,omitempty"`
	Writes      *[]string `json:"writes,omitempty"`
}

// ParseConfig reads and checks a configuration.
func ParseConfig(data []byte) (*Config, error) {
	var cfg Config
	decoder := json.NewDecoder(bytes.NewReader(data))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(&cfg); err != nil {
		return nil, fmt.Errorf("mcp config: %w", err)
	}
	if len(cfg.Servers) == 0 {
		return nil, fmt.Errorf("mcp config: no server under \"mcpServers\"")
	}
	for _, name := range cfg.names() {
		if err := cfg.Servers[name].check(); err != nil {
			return nil, fmt.Errorf("mcp config: server %q: %w", name, err)
		}
	}
	return &cfg, nil
}

func (s ServerConfig) check() error {
	switch {
	case s.Command != "" && s.URL != "":
		return fmt.Errorf("has both \"command\" and \"url\"; a server is one or the other")
	case s.Command == "" && s.URL == "":
		return fmt.Errorf("needs \"command\" (stdio) or \"url\" (streamable HTTP)")
	case s.URL != "":
		if len(s.Args) > 0 || len(s.Env) > 0 || s.Dir != "" {
			return fmt.Errorf("\"args\", \"env\" and \"cwd\" belong to a command, not a URL")
		}
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("url %q is not an http(s) URL", s.URL)
		}
	case len(s.Headers) > 0:
		return fmt.Errorf("\"headers\" belong to a URL, not a command")
	}
	return nil
}

// names are the servers in a fixed order, so tools and errors come out the
// same on every run.
func (c *Config) names() []string {
	names := make([]string, 0, len(c.Servers))
	for name := range c.Servers {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
