package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/spine-sandbox/spine/host"
)

func responseSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(host.ResponseSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("response.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("response.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// Every outcome `spine run --json` prints validates against the schema the
// host publishes: success with calls and emitted values, a program error
// (line, traceback), a timeout, a refused tool request, PLM.
func TestRunJSONValidatesAgainstTheSchema(t *testing.T) {
	schema := responseSchema(t)
	for _, c := range []struct {
		name, program, status string
		args                  []string
	}{
		{"ok", "print('x')\nemit(value=1)\nresult = [lookup(key=2)]", `"status":"ok"`, nil},
		{"error", "def f():\n    raise ValueError('no')\nf()", `"traceback":`, nil},
		{"timeout", "while True:\n    pass", `"status":"timeout"`, []string{"--timeout", "200ms"}},
		{"refused", "try:\n    echo(**{'a': 1 << 3000})\nexcept Exception:\n    pass\nlookup(nope=1)", `"error":"lookup:`, nil},
		{"plm", "a = sleep(ms=1, value=2)\nb = lookup(key=3)\nresult = a + b", `"early":true`, []string{"--plm"}},
		{"stream", "a = lookup(key=3)\nresult = a", `"chunks":[{"at_ms":`, []string{"--stream", "--chunk-bytes", "8"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"run", "--demo-tools", "--json"}, c.args...), "-")
			_, out, errOut := cli(t, c.program, args...)
			if !strings.Contains(out, c.status) {
				t.Fatalf("want %s in %s (%s)", c.status, out, errOut)
			}
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Fatalf("%s\ndoes not validate: %v", out, err)
			}
		})
	}
}

// The schema is strict enough to catch a drift: an unknown member, a missing
// one and a wrong type are each refused.
func TestResponseSchemaRefusesDrift(t *testing.T) {
	schema := responseSchema(t)
	_, out, _ := cli(t, "result = 1", "run", "--json", "-")
	for name, edit := range map[string]func(string) string{
		"unknown member": func(s string) string { return strings.Replace(s, `{`, `{"surprise":1,`, 1) },
		"missing status": func(s string) string { return strings.Replace(s, `"status":"ok",`, ``, 1) },
		"elapsed as text": func(s string) string {
			i := strings.Index(s, `"elapsed_ms":`) + len(`"elapsed_ms":`)
			return s[:i] + `"1"` + s[strings.IndexAny(s[i:], ",}")+i:]
		},
	} {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(edit(out)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if schema.Validate(doc) == nil {
			t.Errorf("%s: the schema accepted %s", name, edit(out))
		}
	}
}
