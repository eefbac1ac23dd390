package main

import (
	"strings"
	"testing"
)

func TestStubsFromManifestAndDemoTools(t *testing.T) {
	manifest := writeFile(t, "tools.json", `[
  {"name": "double", "description": "Double x.", "command": ["true"],
   "schema": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]},
   "result": {"type": "integer"}},
  {"name": "lookup"}
]`)
	code, out, errOut := cli(t, "", "stubs", "--manifest", manifest)
	want := "def double(*, x: int) -> int:\n    \"\"\"Double x.\"\"\"\n    ...\n"
	if code != 0 || !strings.HasPrefix(out, "from typing import") || !strings.Contains(out, want) ||
		!strings.Contains(out, "def lookup(*, key: Any) -> Any:\n    \"\"\"Return 7 * key for an integer key.\"\"\"") {
		t.Fatalf("code %d out %s err %s", code, out, errOut)
	}
	code, out, _ = cli(t, "", "stubs", "--demo-tools")
	if code != 0 || !strings.Contains(out, "def echo(**kwargs: Any) -> Any:") || !strings.Contains(out, "def emit(") {
		t.Fatalf("demo tools: %d %s", code, out)
	}
	if code, _, _ := cli(t, "", "stubs"); code != exitUsage {
		t.Fatalf("no tools: %d", code)
	}
}
