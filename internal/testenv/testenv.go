// Package testenv finds what make builds, for the tests of other packages.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Built is $env when it is set, else rel (relative to the repository root)
// when it exists. Missing is a failure, never a skip: hint says what builds it.
func Built(t testing.TB, env, rel, hint string) string {
	t.Helper()
	if path := os.Getenv(env); path != "" {
		return path
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the test's directory")
		}
		dir = parent
	}
	path := filepath.Join(dir, rel)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("%s not found at %s: run `%s` (or set %s)", filepath.Base(rel), path, hint, env)
	}
	return path
}

// GuestBinary is the sandbox's launcher, spine-guest: $SPINE_GUEST, or the
// one `make native` builds.
func GuestBinary(t testing.TB) string {
	return Built(t, "SPINE_GUEST", "build/guest-c/sandbox/spine-guest", "make native")
}

// NativeToolchain is the toolchain native code is compiled with:
// $SPINE_NATIVE, or the one `make native` installs.
func NativeToolchain(t testing.TB) string {
	return Built(t, "SPINE_NATIVE", "build/spine-native", "make native")
}
