// Package realpython reads the header of a program of the real-Python
// corpus (this directory): how the program must end, and where it runs.
// corpus_test.go holds each program to it in both isolation modes and, for
// programs that call no tool, against /usr/bin/python3 itself.
package realpython

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Expectation is what a program's header says. The header is the leading
// block of `# key: value` lines, `# expect:` first, then at least one line
// of plain comment saying what the program shows. A header that cannot be
// read exactly is an error: a malformed expectation must fail its test,
// never weaken it.
type Expectation struct {
	OK        bool            // `# expect: ok`; else `# expect: error <Type>`
	Exception string          // the Python exception type the program must end with
	Value     json.RawMessage // the exact result value (ok only; required then)
	Stdout    string          // the exact stdout (default: none)
	Tools     []string        // the tools it calls: then it is not run against python3
	Sandbox   bool            // `# isolation: sandbox`: the outcome is the sandbox's own
}

var (
	headerKey     = regexp.MustCompile(`^#\s*([a-z][a-z0-9-]*):\s*(.*)$`)
	exceptionName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	knownKeys     = map[string]bool{"expect": true, "value": true, "stdout": true, "tools": true, "isolation": true}
)

// Parse reads a program's header.
func Parse(source string) (Expectation, error) {
	var x Expectation
	seen := map[string]bool{}
	described := false
	for i, raw := range strings.Split(source, "\n") {
		line := strings.TrimSpace(raw)
		if !strings.HasPrefix(line, "#") {
			break
		}
		m := headerKey.FindStringSubmatch(line)
		if m == nil || !knownKeys[m[1]] {
			described = true
			continue
		}
		key, text := m[1], strings.TrimSpace(m[2])
		switch {
		case described:
			return x, fmt.Errorf("line %d: header key %q after the description: keys come first", i+1, key)
		case seen[key]:
			return x, fmt.Errorf("line %d: header key %q given twice", i+1, key)
		case i == 0 && key != "expect", i > 0 && !seen["expect"]:
			return x, fmt.Errorf("line %d: the header starts with `# expect:`", i+1)
		}
		seen[key] = true
		if err := x.set(key, text); err != nil {
			return x, fmt.Errorf("line %d: %s: %w", i+1, key, err)
		}
	}
	switch {
	case !seen["expect"]:
		return x, fmt.Errorf("no `# expect:` line")
	case !described:
		return x, fmt.Errorf("no description after the header keys")
	case x.OK && x.Value == nil:
		return x, fmt.Errorf("`# expect: ok` needs a `# value:`")
	case !x.OK && x.Value != nil:
		return x, fmt.Errorf("a program that ends with an error has no value")
	}
	return x, nil
}

func (x *Expectation) set(key, text string) error {
	switch key {
	case "expect":
		if text == "ok" {
			x.OK = true
			return nil
		}
		name, ok := strings.CutPrefix(text, "error ")
		if !ok || !exceptionName.MatchString(name) {
			return fmt.Errorf("%q is neither `ok` nor `error <ExceptionType>`", text)
		}
		x.Exception = name
	case "value":
		if !json.Valid([]byte(text)) {
			return fmt.Errorf("not JSON: %q", text)
		}
		x.Value = json.RawMessage(text)
	case "stdout":
		if err := json.Unmarshal([]byte(text), &x.Stdout); err != nil {
			return fmt.Errorf("not a JSON string: %v", err)
		}
	case "tools":
		for _, name := range strings.Split(text, ",") {
			if name = strings.TrimSpace(name); name == "" {
				return fmt.Errorf("an empty tool name in %q", text)
			}
			x.Tools = append(x.Tools, strings.TrimSpace(name))
		}
	case "isolation":
		if text != "sandbox" {
			return fmt.Errorf("%q: the only isolation a program may name is sandbox", text)
		}
		x.Sandbox = true
	}
	return nil
}

// Differential says whether the program also runs against python3: it
// calls no tool and its outcome is not the sandbox's own.
func (x Expectation) Differential() bool { return len(x.Tools) == 0 && !x.Sandbox }
