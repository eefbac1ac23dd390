package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// suiteDir holds the security suite's hostile programs. A class drawn from it
// submits the program as it is, with the outcome its header names: the
// expectation is written once, in the program.
const suiteDir = "tests/security"

// suiteDeadline is the suite's default deadline (`# deadline:` overrides it).
const suiteDeadline = 2 * time.Second

// loadedDeadlineFactor stretches the deadline of a program whose outcome is
// not a timeout.
const loadedDeadlineFactor = 5

// loadSuite fills in the classes drawn from the suite: their source, status,
// mode and deadline.
func loadSuite(all []*class) error {
	for _, c := range all {
		if c.suite == "" {
			continue
		}
		path := filepath.Join(suiteDir, c.suite+".py")
		data, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("class %s: %w (run from the repository root)", c.name, err)
		}
		status, plm, deadline, err := readHeader(string(data))
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if status != host.StatusTimeout {
			// The suite's deadlines are set for an idle machine; under the
			// soak's load a program that must end otherwise (a breach, a
			// limit) could be slow enough to reach its deadline first.
			deadline *= loadedDeadlineFactor
		}
		c.want, c.deadline, c.run = statuses(status), deadline, execClass(string(data), plm)
	}
	return nil
}

// readHeader reads the header comment block's expect, mode and deadline lines.
// The suite's runner checks the whole header (host/security_header_test.go);
// being test code, it cannot be imported, so this reads only what the soak
// needs and refuses what it cannot honour (an exception type, a stream).
func readHeader(source string) (status host.Status, plm bool, deadline time.Duration, err error) {
	deadline = suiteDeadline
	sc := bufio.NewScanner(strings.NewReader(source))
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "#")
		if !ok {
			break
		}
		key, value, _ := strings.Cut(strings.TrimSpace(line), ":")
		fields := strings.Fields(value)
		switch {
		case key == "expect" && len(fields) == 1:
			status = host.Status(fields[0])
		case key == "expect":
			return "", false, 0, fmt.Errorf("the soak takes an outcome without an exception type, not %q", value)
		case key == "mode" && len(fields) == 1 && (fields[0] == "plain" || fields[0] == "plm"):
			plm = fields[0] == "plm"
		case key == "mode":
			return "", false, 0, fmt.Errorf("the soak submits plain or plm programs, not mode %q", value)
		case key == "deadline" && len(fields) == 1:
			if deadline, err = time.ParseDuration(fields[0]); err != nil {
				return "", false, 0, err
			}
		}
	}
	if status == "" {
		return "", false, 0, fmt.Errorf("no `# expect:` line")
	}
	return status, plm, deadline, nil
}
