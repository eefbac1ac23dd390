// Package bridge is the guest boundary: it matches each tool request from the
// guest against the execution's manifest, validates its arguments, runs the
// tool (now, or early on a worker for PLM and prefix), and records the trace.
// It is transport-independent: bridge/inproc (cgo) and the wire transport of
// the sandbox both drive a Session.
package bridge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// Handler runs one tool call: args is the JSON object of the keyword
// arguments, the result is the JSON value returned to the program. A returned
// error reaches the program as RuntimeError(err.Error()), or as the
// exception a TypedError in its chain names.
type Handler func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)

// Tool is a tool as the bridge serves it: its spec and its handler, with the
// argument schema compiled once.
type Tool struct {
	Name        string
	Description string
	Schema      json.RawMessage
	Speculative bool
	// Reads and Writes name the resources the tool depends on and changes;
	// nil means everything (see SetResources).
	Reads, Writes []string
	Handler       Handler

	schema *jsonschema.Schema
}

// NewTool checks the spec and compiles its argument schema.
func NewTool(name, description string, schema json.RawMessage, speculative bool, handler Handler) (*Tool, error) {
	if !isIdentifier(name) {
		return nil, fmt.Errorf("tool name %q is not a Python identifier", name)
	}
	if handler == nil {
		return nil, fmt.Errorf("tool %s has no handler", name)
	}
	t := &Tool{Name: name, Description: description, Schema: schema, Speculative: speculative, Handler: handler}
	if len(bytes.TrimSpace(schema)) > 0 {
		compiled, err := compileSchema(name, schema)
		if err != nil {
			return nil, err
		}
		t.schema = compiled
	}
	return t, nil
}

func compileSchema(name string, schema json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("tool %s: schema is not JSON: %w", name, err)
	}
	url := "spine://tools/" + name + ".json"
	compiler := jsonschema.NewCompiler()
	if err := compiler.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("tool %s: %w", name, err)
	}
	compiled, err := compiler.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("tool %s: invalid schema: %w", name, err)
	}
	return compiled, nil
}

// validate checks args against the tool's schema; nil when it has none.
func (t *Tool) validate(args json.RawMessage) error {
	if t.schema == nil {
		return nil
	}
	instance, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return fmt.Errorf("%s: arguments are not JSON: %v", t.Name, err)
	}
	if err := t.schema.Validate(instance); err != nil {
		return fmt.Errorf("%s: arguments do not match the schema: %s", t.Name, schemaMessage(err))
	}
	return nil
}

// schemaMessage keeps the causes of a validation error and drops the
// compiler's resource URL, which means nothing to the program's author.
func schemaMessage(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	var causes []string
	for _, line := range lines[1:] {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "-"))
		if line != "" {
			causes = append(causes, line)
		}
	}
	if len(causes) == 0 {
		return lines[0]
	}
	return strings.Join(causes, "; ")
}

// IsToolName reports whether name can be a tool's name.
func IsToolName(name string) bool { return isIdentifier(name) }

// isIdentifier reports whether name can be a tool's name: a Python name
// that the convention does not give the program itself.
func isIdentifier(name string) bool {
	return IsPythonName(name) && !conventionNames[name]
}

// IsPythonName reports whether name is an ASCII Python identifier and no
// keyword: what a keyword argument may be called.
func IsPythonName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return !pythonKeywords[name]
}

var pythonKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true,
	"async": true, "await": true, "break": true, "class": true, "continue": true,
	"def": true, "del": true, "elif": true, "else": true, "except": true, "finally": true,
	"for": true, "from": true, "global": true, "if": true, "import": true, "in": true,
	"is": true, "lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true,
	"raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// conventionNames are the names the convention gives the program itself.
// (and the clock crossing's, which a journaled execution reserves).
var conventionNames = map[string]bool{"inputs": true, "result": true, protocol.ClockTool: true}
