package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o755); err != nil {
		t.Fatal(err)
	}
}

// `go run` and `go test` find spine-guest in the module root's bin/ or
// build tree from any directory below it, without an environment variable;
// found nowhere, the error says where it looked and what to run.
func TestGuestFoundFromTheModuleRoot(t *testing.T) {
	t.Setenv("SPINE_GUEST", "")
	root := t.TempDir()
	touch(t, filepath.Join(root, "go.mod"))
	deep := filepath.Join(root, "cmd", "service")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(deep)

	_, err := guestBinary("")
	if err == nil || !strings.Contains(err.Error(), "make build") || !strings.Contains(err.Error(), filepath.Join(root, "bin", "spine-guest")) ||
		!strings.Contains(err.Error(), "$SPINE_GUEST") {
		t.Fatalf("nothing built: %v", err)
	}
	built := filepath.Join(root, "build", "guest-c", "sandbox", "spine-guest")
	touch(t, built)
	if path, err := guestBinary(""); err != nil || path != built {
		t.Fatalf("build tree: %q %v", path, err)
	}
	installed := filepath.Join(root, "bin", "spine-guest")
	touch(t, installed)
	if path, err := guestBinary(""); err != nil || path != installed {
		t.Fatalf("bin/ comes first: %q %v", path, err)
	}
	t.Setenv("SPINE_GUEST", "/from/env")
	if path, _ := guestBinary(""); path != "/from/env" {
		t.Fatalf("the environment comes before the module root: %q", path)
	}
	if path, _ := guestBinary("/configured"); path != "/configured" {
		t.Fatalf("the configured path comes first: %q", path)
	}
}
