package host

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/invopop/jsonschema"
)

// ToolSpec describes a tool to the guest and to the bridge.
type ToolSpec struct {
	// Name is the Python name the program calls; it must be an identifier.
	Name string `json:"name"`
	// Description is the proxy's docstring.
	Description string `json:"description,omitempty"`
	// Schema is the JSON Schema of the keyword-arguments object; calls that do
	// not match it get a tool error and never reach the handler.
	Schema json.RawMessage `json:"schema,omitempty"`
	// Speculative tools have no side effects, so PLM and prefix streaming may
	// start them before the program reaches the call (and discard the result
	// when it never does). A tool that is not speculative runs exactly when,
	// as often and in the order the plain program runs it.
	Speculative bool `json:"speculative,omitempty"`
}

// Handler runs one call: args is the JSON object of the keyword arguments and
// the result is the JSON value the program receives. A returned error reaches
// the program as RuntimeError(err.Error()).
type Handler func(ctx context.Context, args json.RawMessage) (json.RawMessage, error)

// Tool is a spec and its handler.
type Tool struct {
	Spec    ToolSpec
	Handler Handler
}

// NewTool makes a tool from a raw JSON handler.
func NewTool(spec ToolSpec, handler Handler) Tool {
	return Tool{Spec: spec, Handler: handler}
}

// ToolOption sets an optional part of a typed tool's spec.
type ToolOption func(*ToolSpec)

// Describe sets the tool's description.
func Describe(text string) ToolOption { return func(s *ToolSpec) { s.Description = text } }

// Speculative marks the tool as free of side effects (see ToolSpec.Speculative).
func Speculative() ToolOption { return func(s *ToolSpec) { s.Speculative = true } }

// Func makes a typed tool: the keyword arguments decode into A (a struct whose
// json tags name the keywords; its JSON Schema is derived from it) and the
// result R is encoded as JSON.
func Func[A, R any](name string, fn func(ctx context.Context, args A) (R, error), opts ...ToolOption) Tool {
	spec := ToolSpec{Name: name, Schema: schemaOf[A]()}
	for _, opt := range opts {
		opt(&spec)
	}
	return Tool{Spec: spec, Handler: func(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
		var args A
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		result, err := fn(ctx, args)
		if err != nil {
			return nil, err
		}
		return json.Marshal(result)
	}}
}

func schemaOf[A any]() json.RawMessage {
	reflector := jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, Anonymous: true}
	t := reflect.TypeOf((*A)(nil)).Elem()
	if t.Kind() != reflect.Struct && !(t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct) {
		return nil // only a struct names keywords; other types are checked by decoding
	}
	schema := reflector.ReflectFromType(t)
	schema.Version = ""
	schema.ID = ""
	encoded, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	return encoded
}
