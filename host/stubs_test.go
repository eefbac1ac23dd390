package host

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateStubs = flag.Bool("update-stubs", false, "rewrite host/testdata/stubs/*.pyi from Stubs")

// stubCases cover the schema shapes Stubs maps: required and optional
// parameters, defaults, enums, nested objects, arrays, unions, $ref, a
// result schema, no schema, and names no keyword can have.
var stubCases = map[string][]ToolSpec{
	"search": {{
		Name: "search", Description: "Search the index.\nResults are ranked.",
		Schema: json.RawMessage(`{"type":"object","properties":{
			"query":{"type":"string","description":"The text to find."},
			"limit":{"type":"integer","default":10},
			"lang":{"enum":["en","fr"]},
			"filters":{"type":"object","description":"Narrow the search.","properties":{
				"after":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},"required":["after"]},
			"exact":{"type":["boolean","null"]}},
			"required":["query"],"additionalProperties":false}`),
		Result: json.RawMessage(`{"type":"array","items":{"type":"object","properties":{"title":{"type":"string"},"score":{"type":"number"}},"required":["title","score"]}}`),
	}},
	"shapes": {
		{Name: "anything", Description: "No schema at all."},
		{Name: "tagged", Schema: json.RawMessage(`{"type":"object","properties":{
			"mode":{"const":"fast"},"weights":{"type":"object","additionalProperties":{"type":"number"}},
			"id":{"anyOf":[{"type":"integer"},{"type":"string"}]},"first-name":{"type":"string"},
			"point":{"$ref":"#/$defs/point"}},"required":["mode","point"],
			"$defs":{"point":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"]}}}`),
			Result: json.RawMessage(`{"type":"object","additionalProperties":{"type":"integer"}}`)},
	},
}

// Stubs renders each case exactly as its golden file says (go test
// -run TestStubsGolden -update-stubs rewrites them after a deliberate change).
func TestStubsGolden(t *testing.T) {
	for name, specs := range stubCases {
		got := Stubs(specs)
		path := filepath.Join("testdata", "stubs", name+".pyi")
		if *updateStubs {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: Stubs =\n%s\nwant (%s)\n%s", name, got, path, want)
		}
	}
}
