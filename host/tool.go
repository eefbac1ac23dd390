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
	// Result is the JSON Schema of the value the tool returns (optional;
	// Func derives it from its result type). Only Stubs and the guest's
	// signature of the tool read it: results are not checked against it.
	Result json.RawMessage `json:"result,omitempty"`
	// Speculative tools have no side effects, so PLM and prefix streaming may
	// start them before the program reaches the call (and discard the result
	// when it never does). A tool that is not speculative runs exactly when,
	// as often and in the order the plain program runs it.
	//
	// Effects order reads: a speculative call never starts before an
	// effectful call that the plain program runs before it has completed,
	// because its value may depend on what that call changed. With
	//
	//	put(key="a", value=1)
	//	result = get(key="a")
	//
	// `get` starts only once `put` has returned, with PLM and when streamed,
	// so the program sees 1, as it does plainly. Reads and Writes say more
	// precisely what may conflict (see below).
	Speculative bool `json:"speculative,omitempty"`
	// Reads names the resources a speculative tool's value depends on, and
	// Writes the resources an effectful tool may change. Names are the tool
	// author's own ("calendar", "mailbox", "kv"); a speculative call is held
	// back only by earlier effectful calls whose Writes share a name with its
	// Reads. nil (the default) means everything: a speculative tool that does
	// not say what it reads waits for every earlier effect, and an effectful
	// tool that does not say what it writes holds back every later read. An
	// empty, non-nil list means nothing: []string{} on a pure function
	// (arithmetic, a fixed lookup table) lets it start early whatever the
	// program changed before.
	//
	//	list_events  Speculative, Reads: {"calendar"}
	//	send_mail    Writes: {"mailbox"}
	//	create_event Writes: {"calendar"}
	//
	// Here `send_mail(...)` does not hold back a later `list_events()`, but
	// `create_event(...)` does. A speculative tool writes nothing, so Writes
	// must be empty for it; Reads of an effectful tool is only descriptive
	// (effectful calls always run in program order). The host enforces the
	// rule too: an effectful call cancels every call started early that reads
	// what it writes, and the program's own call then runs afresh.
	// (No omitempty: null and [] must stay apart when a spec is encoded.)
	Reads  []string `json:"reads"`
	Writes []string `json:"writes"`
	// Approval: every call of this tool needs a decision before it runs.
	// The program stops at the call with StatusSuspended and a journal, and
	// Engine.Resume continues it (approve, deny, or answer in its place).
	// Such a call never starts early.
	Approval bool `json:"approval,omitempty"`
}

// Handler runs one call: args is the JSON object of the keyword arguments and
// the result is the JSON value the program receives. A returned error reaches
// the program as RuntimeError(err.Error()), or as the exception a *ToolError
// in its chain names (see ToolError).
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

// Returns sets the JSON Schema of the tool's result (see ToolSpec.Result).
func Returns(schema json.RawMessage) ToolOption { return func(s *ToolSpec) { s.Result = schema } }

// Speculative marks the tool as free of side effects (see ToolSpec.Speculative).
func Speculative() ToolOption { return func(s *ToolSpec) { s.Speculative = true } }

// Reads names the resources the tool's value depends on (see ToolSpec.Reads);
// Reads() with no name means it depends on nothing the program can change.
func Reads(resources ...string) ToolOption {
	return func(s *ToolSpec) { s.Reads = append([]string{}, resources...) }
}

// Writes names the resources the tool may change (see ToolSpec.Writes);
// Writes() with no name means it changes nothing another tool reads.
func Writes(resources ...string) ToolOption {
	return func(s *ToolSpec) { s.Writes = append([]string{}, resources...) }
}

// Func makes a typed tool: the keyword arguments decode into A (a struct whose
// json tags name the keywords; its JSON Schema is derived from it) and the
// result R is encoded as JSON.
func Func[A, R any](name string, fn func(ctx context.Context, args A) (R, error), opts ...ToolOption) Tool {
	spec := ToolSpec{Name: name, Schema: schemaOf[A](), Result: resultSchemaOf[R]()}
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
	t := reflect.TypeOf((*A)(nil)).Elem()
	if t.Kind() != reflect.Struct && !(t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct) {
		return nil // only a struct names keywords; other types are checked by decoding
	}
	return reflectSchema(t)
}

// resultSchemaOf is the JSON Schema of a result type, for the tool's
// signature (nil for an interface: nothing is known of it).
func resultSchemaOf[R any]() json.RawMessage {
	t := reflect.TypeOf((*R)(nil)).Elem()
	if t.Kind() == reflect.Interface {
		return nil
	}
	return reflectSchema(t)
}

func reflectSchema(t reflect.Type) json.RawMessage {
	reflector := jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, Anonymous: true}
	schema := reflector.ReflectFromType(t)
	schema.Version = ""
	schema.ID = ""
	encoded, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	return encoded
}
