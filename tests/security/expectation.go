// Package security reads the header of a hostile program in this
// directory: the outcome the program must end with and how it is run. The
// security suite (host/security_test.go) and the soak (bench/soak) both hold
// a program to this one reading of its header.
package security

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// DefaultDeadline is a program's deadline when its header gives none.
const DefaultDeadline = 2 * time.Second

// Expectation is what a hostile program's header says it must end with.
// The header is the leading block of `# key: value` lines, the first of
// them `# expect:`, followed by at least one line of plain comment saying
// what the attack is. A header the runner cannot read exactly is an error:
// a malformed expectation must fail its test, never weaken it.
type Expectation struct {
	Status    host.Status
	Exception string          // the Python exception type Response.Error must name ("" unless given)
	Mode      string          // plain, plm or stream
	Deadline  time.Duration   // the execution's context deadline
	Native    host.NativeMode // NativeOff unless `# native:` asks for it
	Value     json.RawMessage // the exact result value (ok only), nil unless given
	RSSMiB    int             // the most the host's RSS may grow, 0 unless given
}

// The statuses an execution can end with, so a typo in a header fails.
var knownStatuses = map[host.Status]bool{
	host.StatusOK: true, host.StatusError: true, host.StatusTimeout: true, host.StatusCancelled: true,
	host.StatusLimit: true, host.StatusMemory: true, host.StatusOutput: true, host.StatusCrashed: true,
	host.StatusViolation: true,
}

var (
	headerKey     = regexp.MustCompile(`^#\s*([a-z][a-z0-9-]*):\s*(.*)$`)
	exceptionName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)
)

// Parse reads a program's header.
func Parse(source []byte) (Expectation, error) {
	x := Expectation{Mode: "plain", Deadline: DefaultDeadline}
	seen := map[string]bool{}
	described, inKeys := false, true
	for i, raw := range strings.Split(string(source), "\n") {
		line := strings.TrimSpace(raw)
		if !strings.HasPrefix(line, "#") {
			break
		}
		m := headerKey.FindStringSubmatch(line)
		if m != nil && !inKeys && knownKey(m[1]) {
			return x, fmt.Errorf("line %d: header key %q after the description: keys come first", i+1, m[1])
		}
		if m == nil || !inKeys {
			if i == 0 {
				return x, fmt.Errorf("the first line must be `# expect: <status> [<ExceptionType>]`, not %q", line)
			}
			inKeys = false
			if strings.TrimSpace(strings.TrimPrefix(line, "#")) != "" {
				described = true
			}
			continue
		}
		key, value := m[1], strings.TrimSpace(m[2])
		if i == 0 && key != "expect" {
			return x, fmt.Errorf("the first line must be `# expect: ...`, not %q", line)
		}
		if seen[key] {
			return x, fmt.Errorf("line %d: %q given twice", i+1, key)
		}
		seen[key] = true
		if err := x.set(key, value); err != nil {
			return x, fmt.Errorf("line %d: %w", i+1, err)
		}
	}
	if !seen["expect"] {
		return x, fmt.Errorf("no `# expect:` line")
	}
	if !described {
		return x, fmt.Errorf("no comment line after the header saying what the attack is")
	}
	if x.Value != nil && x.Status != host.StatusOK {
		return x, fmt.Errorf("`# value:` is only for `# expect: ok`, not %s", x.Status)
	}
	return x, nil
}

func knownKey(key string) bool {
	switch key {
	case "expect", "mode", "deadline", "native", "value", "host-rss-mib":
		return true
	}
	return false
}

// set applies one header key.
func (x *Expectation) set(key, value string) error {
	switch key {
	case "expect":
		fields := strings.Fields(value)
		if len(fields) == 0 || len(fields) > 2 || !knownStatuses[host.Status(fields[0])] {
			return fmt.Errorf("`# expect: %s`: want <status> [<ExceptionType>] with a host status", value)
		}
		x.Status = host.Status(fields[0])
		if len(fields) == 2 {
			if !exceptionName.MatchString(fields[1]) {
				return fmt.Errorf("`# expect: %s`: %q is not an exception type", value, fields[1])
			}
			x.Exception = fields[1]
		}
		if x.Status == host.StatusError && x.Exception == "" {
			return fmt.Errorf("`# expect: error` must name the exception type (`# expect: error PermissionError`)")
		}
	case "mode":
		if value != "plain" && value != "plm" && value != "stream" {
			return fmt.Errorf("`# mode: %s`: want plain, plm or stream", value)
		}
		x.Mode = value
	case "deadline":
		d, err := time.ParseDuration(value)
		if err != nil || d <= 0 {
			return fmt.Errorf("`# deadline: %s`: want a positive duration such as 2s", value)
		}
		x.Deadline = d
	case "native":
		switch value {
		case "eager":
			x.Native = host.NativeEager
		case "auto":
			x.Native = host.NativeAuto
		default:
			return fmt.Errorf("`# native: %s`: want eager or auto", value)
		}
	case "value":
		var decoded any
		if err := json.Unmarshal([]byte(value), &decoded); err != nil {
			return fmt.Errorf("`# value: %s`: not JSON: %v", value, err)
		}
		x.Value = json.RawMessage(value)
	case "host-rss-mib":
		n, err := strconv.Atoi(value)
		if err != nil || n <= 0 {
			return fmt.Errorf("`# host-rss-mib: %s`: want a positive whole number", value)
		}
		x.RSSMiB = n
	default:
		return fmt.Errorf("unknown header key %q (have: expect, mode, deadline, native, value, host-rss-mib)", key)
	}
	return nil
}
