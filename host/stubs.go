package host

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/spine-sandbox/spine/internal/bridge"
)

// Stubs renders the engine's tools as Python stubs for a model's prompt:
// one keyword-only function per tool, with types from its JSON Schema, its
// return type (ToolSpec.Result) and its description as docstring, preceded
// by the TypedDicts of its nested objects. In the guest, help(tool) and
// inspect.signature(tool) show the same signature and docstring.
func (e *Engine) Stubs() string { return Stubs(e.Tools()) }

// Stubs renders tool specs as Python stubs (see Engine.Stubs). The mapping
// from JSON Schema:
//
//	string, integer, number, boolean, null   str, int, float, bool, None
//	enum, const                              Literal[...]
//	array with items                         list[T]
//	object with properties                   a TypedDict (optional keys NotRequired)
//	object without properties                dict[str, T] (additionalProperties) or dict
//	a list of types, anyOf, oneOf            T1 | T2
//	anything else                            Any
//
// A required parameter has no default; an optional one shows its schema's
// default, or `...` (it may be left out) when it has none. A tool without
// named parameters takes **kwargs: Any.
func Stubs(specs []ToolSpec) string {
	var b strings.Builder
	b.WriteString("from typing import Any, Literal, NotRequired, TypedDict\n")
	for _, spec := range specs {
		sig := signatureOf(spec)
		for _, class := range sig.classes {
			b.WriteString("\n\n")
			b.WriteString(class)
		}
		b.WriteString("\n\n")
		fmt.Fprintf(&b, "def %s(%s) -> %s:\n", spec.Name, sig.parameterList(), sig.returns)
		b.WriteString(docstring(sig.doc, "    "))
		b.WriteString("    ...\n")
	}
	return b.String()
}

// signature is a tool's rendered signature: what a stub shows and what the
// guest sets as the tool function's __signature__ and __doc__.
type signature struct {
	params  []parameter
	kwargs  bool // **kwargs: Any (the schema names no parameters)
	returns string
	doc     string
	classes []string // the TypedDicts it refers to, in order
}

type parameter struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Default string `json:"default,omitempty"` // Python text; "" : required
}

func (s signature) parameterList() string {
	var parts []string
	if len(s.params) > 0 {
		parts = append(parts, "*")
	}
	for _, p := range s.params {
		text := p.Name + ": " + p.Type
		if p.Default != "" {
			text += " = " + p.Default
		}
		parts = append(parts, text)
	}
	if s.kwargs {
		parts = append(parts, "**kwargs: Any")
	}
	return strings.Join(parts, ", ")
}

// manifestSignature is the signature as the guest receives it in the
// manifest: the rendered texts, not the schema, so the guest shows exactly
// what the stub shows and the manifest stays small.
type manifestSignature struct {
	Params  []parameter `json:"params"`
	Kwargs  bool        `json:"kwargs,omitempty"`
	Returns string      `json:"returns"`
	Doc     string      `json:"doc,omitempty"`
}

func (s signature) manifest() *manifestSignature {
	params := s.params
	if params == nil {
		params = []parameter{}
	}
	return &manifestSignature{Params: params, Kwargs: s.kwargs, Returns: s.returns, Doc: s.doc}
}

// schema is the part of JSON Schema the stubs read.
type schema struct {
	Type                 json.RawMessage    `json:"type"`
	Description          string             `json:"description"`
	Properties           map[string]*schema `json:"properties"`
	Required             []string           `json:"required"`
	Items                *schema            `json:"items"`
	Enum                 []json.RawMessage  `json:"enum"`
	Const                json.RawMessage    `json:"const"`
	Default              json.RawMessage    `json:"default"`
	AnyOf                []*schema          `json:"anyOf"`
	OneOf                []*schema          `json:"oneOf"`
	AdditionalProperties json.RawMessage    `json:"additionalProperties"`
	Ref                  string             `json:"$ref"`
	Defs                 map[string]*schema `json:"$defs"`
	Definitions          map[string]*schema `json:"definitions"`
	order                []string           // property names in the schema's order
}

// UnmarshalJSON keeps the order of the properties as written: a stub's
// parameters follow the schema, not the alphabet.
func (s *schema) UnmarshalJSON(data []byte) error {
	type plain schema
	if err := json.Unmarshal(data, (*plain)(s)); err != nil {
		return err
	}
	var raw struct {
		Properties json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(data, &raw) != nil || len(raw.Properties) == 0 {
		return nil
	}
	decoder := json.NewDecoder(strings.NewReader(string(raw.Properties)))
	depth := 0
	for {
		token, err := decoder.Token()
		if err != nil {
			break
		}
		switch t := token.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				s.order = append(s.order, t)
				var skip json.RawMessage
				if decoder.Decode(&skip) != nil {
					return nil
				}
			}
		}
	}
	return nil
}

func (s *schema) propertyNames() []string {
	if len(s.order) == len(s.Properties) {
		return s.order
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// renderer turns schemas into Python type texts, collecting the TypedDicts.
type renderer struct {
	root    *schema
	classes []string
	named   map[string]string // $ref or path -> class name
	taken   map[string]bool
}

func parseSchema(raw json.RawMessage) *schema {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return nil
	}
	var s schema
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return &s
}

func signatureOf(spec ToolSpec) signature {
	r := &renderer{named: map[string]string{}, taken: map[string]bool{}}
	sig := signature{returns: "Any"}
	args := parseSchema(spec.Schema)
	var argDocs []string
	if args != nil && len(args.Properties) > 0 {
		r.root = args
		required := map[string]bool{}
		for _, name := range args.Required {
			required[name] = true
		}
		for _, name := range args.propertyNames() {
			prop := args.Properties[name]
			if !bridge.IsPythonName(name) || prop == nil {
				sig.kwargs = true
				continue
			}
			p := parameter{Name: name, Type: r.typeOf(prop, camel(spec.Name)+camel(name))}
			if !required[name] {
				p.Default = "..."
				if len(prop.Default) > 0 {
					p.Default = pythonLiteral(prop.Default)
				}
			}
			sig.params = append(sig.params, p)
			if prop.Description != "" {
				argDocs = append(argDocs, name+": "+prop.Description)
			}
		}
		// Required parameters first: Python needs no order for keyword-only
		// parameters, but a reader expects the ones to pass first.
		sort.SliceStable(sig.params, func(i, j int) bool { return sig.params[i].Default == "" && sig.params[j].Default != "" })
	} else {
		sig.kwargs = true
	}
	if result := parseSchema(spec.Result); result != nil {
		r.root = result
		sig.returns = r.typeOf(result, camel(spec.Name)+"Result")
	}
	sig.doc = strings.TrimSpace(spec.Description)
	if len(argDocs) > 0 {
		if sig.doc != "" {
			sig.doc += "\n\n"
		}
		sig.doc += "Args:\n    " + strings.Join(argDocs, "\n    ")
	}
	sig.classes = r.classes
	return sig
}

// typeOf is the Python type text of s; name is the TypedDict's name if s is
// an object with properties.
func (r *renderer) typeOf(s *schema, name string) string {
	if s == nil {
		return "Any"
	}
	if s.Ref != "" {
		return r.ref(s.Ref)
	}
	if len(s.Const) > 0 {
		return "Literal[" + pythonLiteral(s.Const) + "]"
	}
	if len(s.Enum) > 0 {
		values := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			values[i] = pythonLiteral(v)
		}
		return "Literal[" + strings.Join(values, ", ") + "]"
	}
	if alternatives := append(append([]*schema{}, s.AnyOf...), s.OneOf...); len(alternatives) > 0 {
		var parts []string
		for i, alt := range alternatives {
			parts = appendUnique(parts, r.typeOf(alt, fmt.Sprintf("%s%d", name, i+1)))
		}
		return strings.Join(parts, " | ")
	}
	var types []string
	if json.Unmarshal(s.Type, &types) != nil {
		var single string
		if json.Unmarshal(s.Type, &single) == nil && single != "" {
			types = []string{single}
		}
	}
	if len(types) == 0 {
		return "Any"
	}
	var parts []string
	for _, t := range types {
		parts = appendUnique(parts, r.simpleType(t, s, name))
	}
	return strings.Join(parts, " | ")
}

func (r *renderer) simpleType(t string, s *schema, name string) string {
	switch t {
	case "string":
		return "str"
	case "integer":
		return "int"
	case "number":
		return "float"
	case "boolean":
		return "bool"
	case "null":
		return "None"
	case "array":
		if s.Items == nil {
			return "list[Any]"
		}
		return "list[" + r.typeOf(s.Items, name+"Item") + "]"
	case "object":
		if len(s.Properties) > 0 {
			return r.typedDict(s, name)
		}
		var extra schema
		if len(s.AdditionalProperties) > 0 && json.Unmarshal(s.AdditionalProperties, &extra) == nil {
			return "dict[str, " + r.typeOf(&extra, name+"Value") + "]"
		}
		return "dict[str, Any]"
	}
	return "Any"
}

func (r *renderer) ref(ref string) string {
	if name, ok := r.named[ref]; ok {
		return name
	}
	for _, prefix := range []string{"#/$defs/", "#/definitions/"} {
		if !strings.HasPrefix(ref, prefix) || r.root == nil {
			continue
		}
		key := strings.TrimPrefix(ref, prefix)
		defs := r.root.Defs
		if prefix == "#/definitions/" {
			defs = r.root.Definitions
		}
		if def := defs[key]; def != nil {
			r.named[ref] = camel(key) // before rendering: a recursive type refers to itself
			text := r.typeOf(def, camel(key))
			r.named[ref] = text
			return text
		}
	}
	return "Any"
}

// typedDict renders an object with properties as a TypedDict class and
// returns its name.
func (r *renderer) typedDict(s *schema, name string) string {
	name = r.unique(name)
	required := map[string]bool{}
	for _, p := range s.Required {
		required[p] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "class %s(TypedDict):\n", name)
	if s.Description != "" {
		b.WriteString(docstring(s.Description, "    "))
	}
	fields := 0
	for _, prop := range s.propertyNames() {
		if !bridge.IsPythonName(prop) {
			continue // a TypedDict class cannot name it
		}
		t := r.typeOf(s.Properties[prop], name+camel(prop))
		if !required[prop] {
			t = "NotRequired[" + t + "]"
		}
		fmt.Fprintf(&b, "    %s: %s\n", prop, t)
		fields++
	}
	if fields == 0 {
		return "dict[str, Any]"
	}
	r.classes = append(r.classes, b.String())
	return name
}

func (r *renderer) unique(name string) string {
	candidate := name
	for i := 2; r.taken[candidate]; i++ {
		candidate = fmt.Sprintf("%s%d", name, i)
	}
	r.taken[candidate] = true
	return candidate
}

func appendUnique(parts []string, part string) []string {
	for _, p := range parts {
		if p == part {
			return parts
		}
	}
	return append(parts, part)
}

// camel is an identifier in CamelCase: "search_web" -> "SearchWeb".
func camel(name string) string {
	var b strings.Builder
	upper := true
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			upper = true
		case upper:
			b.WriteString(strings.ToUpper(string(r)))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pythonLiteral is the Python text of a JSON value.
func pythonLiteral(raw json.RawMessage) string {
	var v any
	decoder := json.NewDecoder(strings.NewReader(string(raw)))
	decoder.UseNumber()
	if decoder.Decode(&v) != nil {
		return "..."
	}
	return literal(v)
}

func literal(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return x.String()
	case string:
		encoded, _ := json.Marshal(x)
		return string(encoded)
	case []any:
		parts := make([]string, len(x))
		for i, item := range x {
			parts[i] = literal(item)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = literal(k) + ": " + literal(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "..."
}

// docstring is text as an indented triple-quoted docstring.
func docstring(text, indent string) string {
	if text == "" {
		return ""
	}
	text = strings.ReplaceAll(text, `\`, `\\`)
	text = strings.ReplaceAll(text, `"""`, `\"\"\"`)
	lines := strings.Split(text, "\n")
	if len(lines) == 1 {
		return indent + `"""` + text + `"""` + "\n"
	}
	var b strings.Builder
	b.WriteString(indent + `"""` + lines[0] + "\n")
	for _, line := range lines[1:] {
		if strings.TrimSpace(line) == "" {
			b.WriteString("\n")
		} else {
			b.WriteString(indent + line + "\n")
		}
	}
	b.WriteString(indent + `"""` + "\n")
	return b.String()
}
