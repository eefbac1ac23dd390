package agenttools

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spine-sandbox/spine/host"
)

// Program is one program of the agent corpus with the outcome written in its
// header:
//
//	# inputs: <json>            (optional, default {})
//	# value: <json>             the result (for a program that finishes)
//	# error: Type: message      the error (for a program that raises)
//	# stdout: <json string>
//	# effects: <json>           [[tool, args], ...] the effectful calls, in order
//	# calls: <json>             [[tool, args], ...] the calls whose results the
//	                            program used, sorted (a multiset)
//
// The header ends at the first line that is not one of these.
type Program struct {
	Name, Source string
	Inputs       json.RawMessage
	Want         Outcome
}

// Call is a tool and its canonical arguments.
type Call struct {
	Tool string
	Args json.RawMessage
}

func (c Call) String() string { return c.Tool + string(c.Args) }

// MarshalJSON writes [tool, args].
func (c Call) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{c.Tool, c.Args})
}

// UnmarshalJSON reads [tool, args].
func (c *Call) UnmarshalJSON(b []byte) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(b, &pair); err != nil || len(pair) != 2 {
		return fmt.Errorf("a call is [tool, args], not %s", b)
	}
	if err := json.Unmarshal(pair[0], &c.Tool); err != nil {
		return err
	}
	c.Args = canonical(pair[1])
	return nil
}

// Outcome is what the differential suite compares.
type Outcome struct {
	Value   json.RawMessage // canonical; nil when the program raised
	Error   string
	Stdout  string
	Effects []Call // in order
	Calls   []Call // sorted
}

// canonical re-encodes JSON with sorted keys and numbers as written.
func canonical(raw json.RawMessage) json.RawMessage {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return append(json.RawMessage(nil), raw...)
	}
	out, _ := json.Marshal(v)
	return out
}

// Observe is the outcome of one execution: the response and the world it
// ran against. A consumed call is one the program ran itself or an early
// call it claimed; early calls nobody claimed leave no trace in it.
func Observe(resp *host.Response, w *World) Outcome {
	var o Outcome
	if resp == nil {
		o.Error = "<no response>"
		return o
	}
	o.Error, o.Stdout = resp.Error, resp.Stdout
	if o.Error == "" {
		o.Value = canonical(resp.Value)
	}
	for _, e := range w.Effects() {
		o.Effects = append(o.Effects, Call{e.Tool, canonical(e.Args)})
	}
	for _, c := range resp.Calls {
		if !c.Early || c.Claimed {
			o.Calls = append(o.Calls, Call{c.Tool, canonical(c.Args)})
		}
	}
	sort.Slice(o.Calls, func(i, j int) bool { return o.Calls[i].String() < o.Calls[j].String() })
	return o
}

// String shows every compared part, one per line.
func (o Outcome) String() string {
	effects, _ := json.Marshal(nonNil(o.Effects))
	calls, _ := json.Marshal(nonNil(o.Calls))
	value := "-"
	if o.Error == "" {
		value = string(o.Value)
	}
	return fmt.Sprintf("value=%s\nerror=%q\nstdout=%q\neffects=%s\ncalls=%s", value, o.Error, o.Stdout, effects, calls)
}

func nonNil(c []Call) []Call {
	if c == nil {
		return []Call{}
	}
	return c
}

// Header is the expectation block of o, as LoadCorpus reads it.
func (o Outcome) Header(inputs json.RawMessage) string {
	var b strings.Builder
	if len(inputs) > 0 && string(canonical(inputs)) != "{}" {
		fmt.Fprintf(&b, "# inputs: %s\n", canonical(inputs))
	}
	if o.Error == "" {
		fmt.Fprintf(&b, "# value: %s\n", o.Value)
	} else {
		fmt.Fprintf(&b, "# error: %s\n", o.Error)
	}
	stdout, _ := json.Marshal(o.Stdout)
	effects, _ := json.Marshal(nonNil(o.Effects))
	calls, _ := json.Marshal(nonNil(o.Calls))
	fmt.Fprintf(&b, "# stdout: %s\n# effects: %s\n# calls: %s\n", stdout, effects, calls)
	return b.String()
}

var headerKeys = []string{"inputs", "value", "error", "stdout", "effects", "calls"}

// SplitHeader returns the expectation block of source and the program after it.
func SplitHeader(source string) (header, body string) {
	rest := source
	for rest != "" {
		line, after, _ := strings.Cut(rest, "\n")
		key, _, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": ")
		if !strings.HasPrefix(line, "# ") || !ok || !contains(headerKeys, key) {
			break
		}
		rest = after
	}
	return source[:len(source)-len(rest)], rest
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// LoadCorpus reads every *.py of dir.
func LoadCorpus(dir string) ([]Program, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.py"))
	if err != nil {
		return nil, err
	}
	var programs []Program
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		p, err := parseProgram(filepath.Base(path), string(data))
		if err != nil {
			return nil, err
		}
		programs = append(programs, p)
	}
	return programs, nil
}

func parseProgram(name, source string) (Program, error) {
	p := Program{Name: name, Source: source, Inputs: json.RawMessage("{}")}
	header, _ := SplitHeader(source)
	scanner := bufio.NewScanner(strings.NewReader(header))
	scanner.Buffer(nil, 1<<20)
	seen := map[string]bool{}
	for scanner.Scan() {
		key, text, _ := strings.Cut(strings.TrimPrefix(scanner.Text(), "# "), ": ")
		seen[key] = true
		var err error
		switch key {
		case "inputs":
			p.Inputs = json.RawMessage(text)
		case "value":
			p.Want.Value = canonical(json.RawMessage(text))
		case "error":
			p.Want.Error = text
		case "stdout":
			err = json.Unmarshal([]byte(text), &p.Want.Stdout)
		case "effects":
			err = json.Unmarshal([]byte(text), &p.Want.Effects)
		case "calls":
			err = json.Unmarshal([]byte(text), &p.Want.Calls)
		}
		if err != nil {
			return p, fmt.Errorf("%s: header %s: %v", name, key, err)
		}
	}
	if seen["value"] == seen["error"] || !seen["stdout"] || !seen["effects"] || !seen["calls"] {
		return p, fmt.Errorf("%s: the header needs value or error, stdout, effects and calls", name)
	}
	if len(p.Want.Effects) == 0 {
		p.Want.Effects = nil
	}
	if len(p.Want.Calls) == 0 {
		p.Want.Calls = nil
	}
	sort.Slice(p.Want.Calls, func(i, j int) bool { return p.Want.Calls[i].String() < p.Want.Calls[j].String() })
	return p, nil
}
