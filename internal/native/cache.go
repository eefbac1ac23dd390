package native

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spine-sandbox/spine/internal/atomicfile"
)

// The cache directory has two parts. A sandboxed child sees neither: it
// receives each module it loads as a descriptor of a sealed copy
// (handout.go). A guest in this process loads modules by path.
//
//	modules/KEY.so   compiled modules: what a guest is handed and loads
//	private/         everything else, never handed to a guest: the generated
//	                 C++ (KEY.cc, kept for whoever debugs it), remembered
//	                 failures (KEY.err, which quote the program's source and
//	                 g++'s messages), and the compile service's files in the
//	                 making (.tmp-*)
//
// Both are in one directory so that the compile service's rename of a
// finished module from private/ into modules/ never crosses file systems.
const (
	modulesDir = "modules"
	privateDir = "private"
)

// cacheLayout creates the two parts under root.
func cacheLayout(root string) error {
	if err := os.MkdirAll(filepath.Join(root, modulesDir), 0o755); err != nil {
		return fmt.Errorf("cannot create the native module cache: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(root, privateDir), 0o700); err != nil {
		return fmt.Errorf("cannot create the native module cache: %w", err)
	}
	return nil
}

// moduleDir holds the compiled modules: the only part of the cache whose
// files are handed to a guest.
func (c *Compiler) moduleDir() string { return filepath.Join(c.opts.CacheDir, modulesDir) }

// PlanDir is where the host keeps native programs' plans (internal/keptplan):
// no guest sees it.
func (c *Compiler) PlanDir() string { return filepath.Join(c.opts.CacheDir, "plans") }

// privatePath is where the compile service works and failures are kept.
func (c *Compiler) privatePath() string { return filepath.Join(c.opts.CacheDir, privateDir) }

func (c *Compiler) modulePath(key string) string { return filepath.Join(c.moduleDir(), key+".so") }

func (c *Compiler) failurePath(key string) string { return filepath.Join(c.privatePath(), key+".err") }

// lookup answers from the cache: a module, a remembered failure, or nil.
func (c *Compiler) lookup(key string) *Outcome {
	path := c.modulePath(key)
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
		return &Outcome{Path: path}
	}
	data, err := os.ReadFile(c.failurePath(key))
	if err != nil {
		return nil
	}
	var f Failure
	if json.Unmarshal(data, &f) != nil || !f.cacheable() {
		return nil // unreadable: compile again, which rewrites it
	}
	return &Outcome{Failure: &f}
}

// remember keeps a failure that belongs to the source or the toolchain, so
// the next execution does not compile it again.
func (c *Compiler) remember(key string, f *Failure) {
	if f == nil || !f.cacheable() {
		return
	}
	if data, err := json.Marshal(f); err == nil {
		atomicfile.Write(c.privatePath(), key+".err", data)
	}
}
