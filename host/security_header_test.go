package host_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// expectation is what a hostile program's header says it must end with.
// The header is the leading block of `# key: value` lines, the first of
// them `# expect:`, followed by at least one line of plain comment saying
// what the attack is. A header the runner cannot read exactly is an error:
// a malformed expectation must fail its test, never weaken it.
type expectation struct {
	status    host.Status
	exception string          // the Python exception type Response.Error must name ("" unless given)
	mode      string          // plain, plm or stream
	deadline  time.Duration   // the execution's context deadline
	native    host.NativeMode // NativeOff unless `# native:` asks for it
	value     json.RawMessage // the exact result value (ok only), nil unless given
	rssMiB    int             // the most the host's RSS may grow, 0 unless given
}

// The statuses an execution can end with, so a typo in a header fails.
var knownStatuses = map[host.Status]bool{
	host.StatusOK: true, host.StatusError: true, host.StatusTimeout: true, host.StatusCancelled: true,
	host.StatusLimit: true, host.StatusMemory: true, host.StatusOutput: true, host.StatusCrashed: true,
	host.StatusViolation: true,
}

var (
	headerKey      = regexp.MustCompile(`^#\s*([a-z][a-z0-9-]*):\s*(.*)$`)
	exceptionName  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)
	defaultTimeout = 2 * time.Second
)

// parseExpectation reads a program's header.
func parseExpectation(source []byte) (expectation, error) {
	x := expectation{mode: "plain", deadline: defaultTimeout}
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
	if x.value != nil && x.status != host.StatusOK {
		return x, fmt.Errorf("`# value:` is only for `# expect: ok`, not %s", x.status)
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
func (x *expectation) set(key, value string) error {
	switch key {
	case "expect":
		fields := strings.Fields(value)
		if len(fields) == 0 || len(fields) > 2 || !knownStatuses[host.Status(fields[0])] {
			return fmt.Errorf("`# expect: %s`: want <status> [<ExceptionType>] with a host status", value)
		}
		x.status = host.Status(fields[0])
		if len(fields) == 2 {
			if !exceptionName.MatchString(fields[1]) {
				return fmt.Errorf("`# expect: %s`: %q is not an exception type", value, fields[1])
			}
			x.exception = fields[1]
		}
		if x.status == host.StatusError && x.exception == "" {
			return fmt.Errorf("`# expect: error` must name the exception type (`# expect: error PermissionError`)")
		}
	case "mode":
		if value != "plain" && value != "plm" && value != "stream" {
			return fmt.Errorf("`# mode: %s`: want plain, plm or stream", value)
		}
		x.mode = value
	case "deadline":
		d, err := time.ParseDuration(value)
		if err != nil || d <= 0 {
			return fmt.Errorf("`# deadline: %s`: want a positive duration such as 2s", value)
		}
		x.deadline = d
	case "native":
		switch value {
		case "eager":
			x.native = host.NativeEager
		case "auto":
			x.native = host.NativeAuto
		default:
			return fmt.Errorf("`# native: %s`: want eager or auto", value)
		}
	case "value":
		var decoded any
		if err := json.Unmarshal([]byte(value), &decoded); err != nil {
			return fmt.Errorf("`# value: %s`: not JSON: %v", value, err)
		}
		x.value = json.RawMessage(value)
	case "host-rss-mib":
		n, err := strconv.Atoi(value)
		if err != nil || n <= 0 {
			return fmt.Errorf("`# host-rss-mib: %s`: want a positive whole number", value)
		}
		x.rssMiB = n
	default:
		return fmt.Errorf("unknown header key %q (have: expect, mode, deadline, native, value, host-rss-mib)", key)
	}
	return nil
}

// exceptionType is the type an error string "Type: message" names.
func exceptionType(errText string) string {
	name, _, _ := strings.Cut(errText, ":")
	return strings.TrimSpace(name)
}

// sameJSON reports whether two JSON texts hold the same value (numbers
// compared by their text, so 1 and 1.0 differ as they do in Python).
func sameJSON(a, b []byte) bool {
	decode := func(data []byte) (any, bool) {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil || d.More() {
			return nil, false
		}
		return v, true
	}
	va, okA := decode(a)
	vb, okB := decode(b)
	if !okA || !okB {
		return false
	}
	ea, _ := json.Marshal(va)
	eb, _ := json.Marshal(vb)
	return bytes.Equal(ea, eb)
}
