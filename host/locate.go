package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// An artefact that `make build` builds beside bin/spine (spine-guest, the
// spine-native toolchain) is looked for, in order: where the caller
// configured it, the environment variable, beside the running executable,
// then in bin/ and the CMake build tree of the module the working directory
// is in (the nearest go.mod above it). The last two make `go run` and
// `go test` work in a checkout where `make build` ran: their executables
// live in a temporary directory, never beside bin/.
type artefact struct {
	name  string // the file beside the executable and in bin/
	env   string
	build string // its path in the CMake build tree, from the module root
}

var (
	guestArtefact  = artefact{name: "spine-guest", env: "SPINE_GUEST", build: "build/guest-c/sandbox/spine-guest"}
	nativeArtefact = artefact{name: "spine-native", env: "SPINE_NATIVE", build: "build/spine-native"}
)

// locate returns the artefact's path, or "" and the places it looked in.
func (a artefact) locate(configured string) (string, []string) {
	if configured != "" {
		return configured, nil
	}
	if path := os.Getenv(a.env); path != "" {
		return path, nil
	}
	var candidates []string
	if exe, err := os.Executable(); err == nil {
		candidates = append(candidates, filepath.Join(filepath.Dir(exe), a.name))
	}
	if root := moduleRoot(); root != "" {
		candidates = append(candidates, filepath.Join(root, "bin", a.name), filepath.Join(root, a.build))
	}
	for _, path := range candidates {
		if _, err := os.Stat(path); err == nil {
			return path, nil
		}
	}
	return "", candidates
}

// missing is the error for an artefact found nowhere: where it looked and
// exactly what to run.
func (a artefact) missing(looked []string, option, purpose string) error {
	return fmt.Errorf("spine: %s needs %s, found neither in $%s nor at %s. Build it in the spine checkout "+
		"with `make build` (it writes bin/%s), then run from there, or set $%s=/path/to/%s or %s",
		purpose, a.name, a.env, strings.Join(looked, ", "), a.name, a.env, a.name, option)
}

// moduleRoot is the directory of the nearest go.mod at or above the
// working directory ("" if none).
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
