package host

import (
	"errors"
	"os"
	"path/filepath"
)

// Isolation reports the level this engine runs guests at, and for the
// sandbox which layers are active ("sandbox: seccomp, namespaces, private
// root, landlock ABI 7"), so a caller can log what protects it.
func (e *Engine) Isolation() string { return e.guests.Describe() }

// locate finds what make build puts beside bin/spine: the configured path,
// else $env, else name beside the running executable ("" if none).
func locate(configured, env, name string) string {
	if configured != "" {
		return configured
	}
	if path := os.Getenv(env); path != "" {
		return path
	}
	if exe, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(exe), name)
		if _, err := os.Stat(beside); err == nil {
			return beside
		}
	}
	return ""
}

func guestBinary(configured string) (string, error) {
	if path := locate(configured, "SPINE_GUEST", "spine-guest"); path != "" {
		return path, nil
	}
	return "", errors.New("spine: sandbox mode needs the spine-guest launcher: build it (make build puts it in bin/), " +
		"then set SandboxOptions.Binary or $SPINE_GUEST, or keep it beside the executable; " +
		"WithIsolation(Inproc) runs without it, for trusted code only")
}
