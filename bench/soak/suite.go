package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/tests/security"
)

// suiteDir holds the security suite's hostile programs. A class drawn from it
// submits the program as it is, with the outcome its header names: the
// expectation is written once, in the program.
const suiteDir = "tests/security"

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
		status, plm, deadline, err := readHeader(data)
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

// readHeader reads a program's header with the suite's own reader, so the
// soak holds the program to the same expectation, and refuses what the soak
// cannot honour: it judges by status alone (no exception type) and submits
// whole programs (no stream).
func readHeader(source []byte) (status host.Status, plm bool, deadline time.Duration, err error) {
	x, err := security.Parse(source)
	if err != nil {
		return "", false, 0, err
	}
	if x.Exception != "" {
		return "", false, 0, fmt.Errorf("the soak takes an outcome without an exception type, not %s %s", x.Status, x.Exception)
	}
	if x.Mode == "stream" {
		return "", false, 0, fmt.Errorf("the soak submits plain or plm programs, not mode %q", x.Mode)
	}
	return x.Status, x.Mode == "plm", x.Deadline, nil
}
