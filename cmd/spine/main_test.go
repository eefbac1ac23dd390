package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain points the CLI at the spine-guest that `make native` builds,
// unless SPINE_GUEST already names one.
func TestMain(m *testing.M) {
	if os.Getenv(cliProcess) != "" { // this binary is the CLI for a test that needs its process
		os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if os.Getenv("SPINE_GUEST") == "" {
		path, _ := filepath.Abs("../../build/guest-c/sandbox/spine-guest")
		os.Setenv("SPINE_GUEST", path)
	}
	if os.Getenv("SPINE_NATIVE") == "" {
		path, _ := filepath.Abs("../../build/spine-native")
		os.Setenv("SPINE_NATIVE", path)
	}
	os.Exit(m.Run())
}

func TestRunSandboxIsTheDefault(t *testing.T) {
	code, out, errOut := cli(t, "result = lookup(key=3)", "run", "--demo-tools", "--json", "-")
	if code != 0 || !strings.Contains(out, `"isolation":"sandbox"`) || !strings.Contains(out, `"value":21`) {
		t.Fatalf("%d %s %s", code, out, errOut)
	}
	code, out, _ = cli(t, "import os\nos.execv('/bin/sh', ['sh'])", "run", "--json", "-")
	if code != 1 || !strings.Contains(out, `"status":"violation"`) {
		t.Fatalf("%d %s", code, out)
	}
	code, out, _ = cli(t, "result = 1", "run", "--isolation", "inproc", "--json", "-")
	if code != 0 || !strings.Contains(out, `"isolation":"inproc"`) {
		t.Fatalf("%d %s", code, out)
	}
}

func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := dispatch(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunPrintsStdoutThenResult(t *testing.T) {
	code, out, _ := cli(t, "print('hi')\nresult = lookup(key=inputs['k'])", "run", "--demo-tools", "--inputs", `{"k": 6}`, "-")
	if code != 0 || out != "hi\n42\n" {
		t.Fatalf("code %d out %q", code, out)
	}
}

func TestRunJSONContract(t *testing.T) {
	inputs := writeFile(t, "in.json", `{"k": 2}`)
	code, out, _ := cli(t, "print('x')\nemit(value=1)\nresult = [lookup(key=inputs['k'])]", "run", "--demo-tools", "--json", "--inputs", "@"+inputs, "-")
	var v map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil {
		t.Fatalf("code %d out %q", code, out)
	}
	for _, key := range []string{"status", "value", "error", "stdout", "transformed", "calls", "emitted", "elapsed_ms"} {
		if _, ok := v[key]; !ok {
			t.Errorf("missing key %q in %s", key, out)
		}
	}
	calls := v["calls"].([]any)
	if v["status"] != "ok" || v["stdout"] != "x\n" || len(calls) != 2 {
		t.Fatalf("%s", out)
	}
	for _, key := range []string{"tool", "args", "start_ms", "end_ms", "error", "early"} {
		if _, ok := calls[0].(map[string]any)[key]; !ok {
			t.Errorf("call lacks %q: %s", key, out)
		}
	}
}

func TestRunExitCodes(t *testing.T) {
	if code, _, errOut := cli(t, "raise ValueError('no')", "run", "-"); code != 1 || !strings.Contains(errOut, "ValueError: no (line 1)") {
		t.Fatalf("program failure: %d %q", code, errOut)
	}
	if code, _, _ := cli(t, "", "run", "--inputs", "{bad", "-"); code != 2 {
		t.Fatalf("bad inputs: %d", code)
	}
	if code, _, _ := cli(t, "", "run"); code != 2 {
		t.Fatalf("no file: %d", code)
	}
	if code, _, _ := cli(t, "", "run", "--isolation", "vm", "-"); code != 2 {
		t.Fatalf("bad isolation: %d", code)
	}
	if code, _, _ := cli(t, "", "run", "/does/not/exist.py"); code != 2 {
		t.Fatalf("missing file: %d", code)
	}
	if code, _, _ := cli(t, "", "frobnicate"); code != 2 {
		t.Fatalf("unknown command: %d", code)
	}
	code, out, _ := cli(t, "while True:\n    pass", "run", "--timeout", "300ms", "--json", "-")
	if code != 1 || !strings.Contains(out, `"status":"timeout"`) {
		t.Fatalf("timeout: %d %s", code, out)
	}
}

func TestRunManifestCommandTool(t *testing.T) {
	manifest := writeFile(t, "tools.json", `[
  {"name": "double", "command": ["/usr/bin/python3", "-c", "import json,sys; a=json.load(sys.stdin); print(json.dumps(a['x']*2))"],
   "schema": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}},
  {"name": "broken", "command": ["sh", "-c", "echo nope >&2; exit 3"]},
  {"name": "lookup"}
]`)
	code, out, errOut := cli(t, "try:\n    broken()\nexcept RuntimeError as e:\n    b = str(e)\nresult = [double(x=21), lookup(key=1), b]",
		"run", "--manifest", manifest, "-")
	if code != 0 || out != "[\n  42,\n  7,\n  \"broken: nope\"\n]\n" {
		t.Fatalf("code %d out %q err %q", code, out, errOut)
	}
	bad := writeFile(t, "bad.json", `[{"name": "mystery"}]`)
	if code, _, _ := cli(t, "", "run", "--manifest", bad, "-"); code != 2 {
		t.Fatalf("unknown tool without command: %d", code)
	}
}

// A --manifest tool says what it reads and writes: the read after the write
// sees the write with --plm and --stream, as it does plainly.
func TestRunManifestReadsAndWrites(t *testing.T) {
	state := writeFile(t, "state.json", `{"value": 0}`)
	manifest := writeFile(t, "tools.json", `[
  {"name": "put", "writes": ["store"], "command": ["sh", "-c", "cat > `+state+`; echo null"]},
  {"name": "get", "speculative": true, "reads": ["store"], "command": ["/usr/bin/python3", "-c",
   "import json; print(json.dumps(json.load(open('`+state+`'))['value']))"]}
]`)
	program := writeFile(t, "p.py", "put(value=inputs['v'])\nresult = get()\n")
	for _, mode := range [][]string{{}, {"--plm"}, {"--stream", "--chunk-bytes", "5"}} {
		if err := os.WriteFile(state, []byte(`{"value": 0}`), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"run", "--manifest", manifest, "--inputs", `{"v": 7}`}, mode...)
		code, out, errOut := cli(t, "", append(args, program)...)
		if code != 0 || out != "7\n" {
			t.Fatalf("%v: code %d out %q err %q", mode, code, out, errOut)
		}
	}
	bad := writeFile(t, "bad.json", `[{"name": "get", "speculative": true, "writes": ["store"], "command": ["true"]}]`)
	if code, _, errOut := cli(t, "", "run", "--manifest", bad, "-"); code != 2 || !strings.Contains(errOut, "speculative") {
		t.Fatalf("a speculative tool that writes: %d %s", code, errOut)
	}
}

func TestRunPLMAndStream(t *testing.T) {
	program := writeFile(t, "p.py", "a = sleep(ms=10, value=inputs['v'])\nb = lookup(key=a)\nresult = [a, b]\n")
	for _, args := range [][]string{
		{"run", "--demo-tools", "--plm", "--json", "--inputs", `{"v": 3}`, program},
		{"run", "--demo-tools", "--stream", "--chunk-bytes", "7", "--chunk-delay", "5ms", "--json", "--inputs", `{"v": 3}`, program},
	} {
		code, out, errOut := cli(t, "", args...)
		if code != 0 || !strings.Contains(out, `"value":[3,21]`) || !strings.Contains(out, `"early":true`) {
			t.Fatalf("%v: %d %s %s", args, code, out, errOut)
		}
		if args[2] == "--stream" && !strings.Contains(out, `"stream":true`) {
			t.Fatalf("no call started during the stream: %s", out)
		}
	}
	code, out, _ := cli(t, "a = lookup(key=2)\nresult = a\n", "run", "--demo-tools", "--stream", "-")
	if code != 0 || out != "14\n" {
		t.Fatalf("stream from stdin: %d %q", code, out)
	}
	if code, _, _ := cli(t, "", "run", "--chunk-bytes", "3", program); code != 2 {
		t.Fatalf("--chunk-bytes without --stream: %d", code)
	}
}

// The binary carries its guest sources: it runs from any directory.
func TestBinaryRunsFromAnyDirectory(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "spine")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "run", "--demo-tools", "-")
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader("result = echo(a=1)")
	out, err := cmd.Output()
	if err != nil || string(out) != "{\n  \"a\": 1\n}\n" {
		t.Fatalf("%v %q", err, out)
	}
}
