package realpython

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/testenv"
)

const (
	minPrograms = 150
	python      = "/usr/bin/python3" // the guest's CPython, never another on PATH
)

type program struct {
	name   string
	source string
	expect Expectation
}

// reference is what python3 made of a program (reference.py).
type reference struct {
	Name    string          `json:"name"`
	Crashed bool            `json:"crashed"`
	Value   json.RawMessage `json:"value"`
	Stdout  string          `json:"stdout"`
	Error   *string         `json:"error"`
}

// TestRealPythonCorpus runs every program of this directory through the
// public API in both isolation modes (one engine each, shared by all
// programs), holds each outcome to its header and, for a program that
// calls no tool and is not about the sandbox itself, to what
// /usr/bin/python3 gives for it: the same exception type, stdout and value.
func TestRealPythonCorpus(t *testing.T) {
	programs := load(t)
	var references map[string]reference
	var referenceErr error
	referenced := make(chan struct{})
	go func() { // beside the engines' runs: python3 takes as long as they do
		defer close(referenced)
		references, referenceErr = runReferences(programs)
	}()
	for _, level := range []host.Isolation{host.Inproc, host.Sandbox} {
		e := engine(t, level)
		t.Run(string(level), func(t *testing.T) {
			for _, p := range programs {
				if p.expect.Sandbox && level != host.Sandbox {
					continue
				}
				t.Run(strings.TrimSuffix(p.name, ".py"), func(t *testing.T) {
					t.Parallel()
					resp, err := e.Execute(context.Background(), host.Request{Source: p.source, Name: p.name})
					if resp == nil {
						t.Fatalf("no response: %v", err)
					}
					check(t, p.expect, resp)
					if !p.expect.Differential() {
						return
					}
					<-referenced
					if referenceErr != nil {
						t.Fatal(referenceErr)
					}
					same(t, references[p.name], resp)
				})
			}
		})
	}
}

func load(t *testing.T) []program {
	paths, err := filepath.Glob("*.py")
	if err != nil {
		t.Fatal(err)
	}
	var programs []program
	for _, path := range paths {
		if path == "reference.py" {
			continue
		}
		source, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		x, err := Parse(string(source))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		programs = append(programs, program{name: path, source: string(source), expect: x})
	}
	if len(programs) < minPrograms {
		t.Fatalf("%d programs, at least %d expected", len(programs), minPrograms)
	}
	return programs
}

func engine(t *testing.T, level host.Isolation) *host.Engine {
	opts := []host.Option{host.WithTools(demotools.Tools()...), host.WithIsolation(level),
		host.WithLimits(host.Limits{Timeout: 30 * time.Second})}
	if level == host.Sandbox {
		opts = append(opts, host.WithSandbox(host.SandboxOptions{Binary: testenv.GuestBinary(t)}))
	}
	e, err := host.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// runReferences runs the differential programs with python3 (reference.py:
// one process, forking one per program) in a temporary working directory
// each, with the UTF-8 locale of a usual system.
func runReferences(programs []program) (map[string]reference, error) {
	if _, err := os.Stat(python); err != nil {
		return nil, fmt.Errorf("the reference interpreter %s is required: %v", python, err)
	}
	args := []string{"-I", "reference.py"}
	for _, p := range programs {
		if p.expect.Differential() {
			args = append(args, p.name)
		}
	}
	cmd := exec.Command(python, args...)
	cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("python3 reference.py: %v %s", err, stderr.String())
	}
	references := map[string]reference{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var ref reference
		if err := json.Unmarshal(line, &ref); err != nil || ref.Crashed {
			return nil, fmt.Errorf("python3 reference.py: %q (%v)", line, err)
		}
		references[ref.Name] = ref
	}
	if len(references) != len(args)-2 {
		return nil, fmt.Errorf("python3 reference.py answered for %d of %d programs", len(references), len(args)-2)
	}
	return references, nil
}

// check holds a response to the program's header.
func check(t *testing.T, x Expectation, resp *host.Response) {
	t.Helper()
	if x.OK {
		if resp.Status != host.StatusOK {
			t.Fatalf("status %s (%s), want ok\n%s", resp.Status, resp.Error, resp.Traceback)
		}
		if !jsonEqual(resp.Value, x.Value) {
			t.Errorf("value %s, want %s", resp.Value, x.Value)
		}
	} else if resp.Status != host.StatusError || exceptionType(resp.Error) != x.Exception {
		t.Errorf("status %s, error %q, want error %s", resp.Status, resp.Error, x.Exception)
	}
	if resp.Stdout != x.Stdout {
		t.Errorf("stdout %q, want %q", resp.Stdout, x.Stdout)
	}
}

// same holds a response to what python3 gave for the program.
func same(t *testing.T, ref reference, resp *host.Response) {
	t.Helper()
	want := ""
	if ref.Error != nil {
		want = *ref.Error
	}
	if got := exceptionType(resp.Error); got != want {
		t.Errorf("exception %q, python3 raised %q", got, want)
	}
	if ref.Error == nil && !jsonEqual(resp.Value, ref.Value) {
		t.Errorf("value %s, python3 gave %s", resp.Value, ref.Value)
	}
	if resp.Stdout != ref.Stdout {
		t.Errorf("stdout %q, python3 printed %q", resp.Stdout, ref.Stdout)
	}
}

// exceptionType is the type in a Response.Error ("Type: message" or "Type").
func exceptionType(text string) string {
	name, _, _ := strings.Cut(text, ":")
	return name
}

// jsonEqual compares two JSON texts as values; numbers compare exactly by
// value (1e16 and 1e+16 are one number, 2**100 is not rounded).
func jsonEqual(a, b []byte) bool {
	va, errA := decode(a)
	vb, errB := decode(b)
	return errA == nil && errB == nil && equalValues(va, vb)
}

func decode(text []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("trailing data")
	}
	return v, nil
}

func equalValues(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		ra, okA := new(big.Rat).SetString(a.String())
		rb, okB := new(big.Rat).SetString(b.String())
		return okA && okB && ra.Cmp(rb) == 0
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !equalValues(a[i], b[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, va := range a {
			vb, ok := b[k]
			if !ok || !equalValues(va, vb) {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(a, b)
	}
}
