// Package native is the host side of hot functions: the compile service (a
// trusted helper process that lowers guest function source to C++ and runs
// g++), the content-addressed module cache, and the per-execution handler of
// the guest's "native" crossing. Nothing here runs inside a sandboxed child;
// the child only receives the path of a module the host validated.
package native

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Options configure a Compiler. Zero fields take defaults.
type Options struct {
	// Toolchain is the directory make installs (build/spine-native,
	// bin/spine-native): lib/, python/ (bindings and the frontend), include/.
	Toolchain string
	// CacheDir is the cache's root (created if missing): modules/ holds the
	// compiled modules, one file per key, and private/ what a sandboxed child
	// must not see (cache.go).
	CacheDir string
	// Python runs the compile service (default /usr/bin/python3, Debian's,
	// the one the bindings are built for).
	Python string
	// CXX is the C++ compiler (default: g++ on PATH).
	CXX string
	// Workers compile at once (default 1); Queue bounds compilations waiting
	// for a worker, engine-wide (default 64): beyond it a compilation is
	// refused, never waited for.
	Workers, Queue int
	// PerExecution bounds the compilations one execution has queued or
	// running at once (default 4, at most half the queue): its other units
	// wait inside the execution, so no execution can fill the queue alone.
	PerExecution int
	// Timeout bounds one compilation (default 60s).
	Timeout time.Duration
	// MaxUnits bounds the functions one execution has compiled (default
	// 512; the ones beyond stay Python, each saying why), MaxSourceBytes the
	// source of one with the functions it calls (default 64 KiB; a longer one
	// stays Python alone), MaxRequestBytes one request of the guest (default
	// 8 MiB; a longer one is refused as a whole).
	MaxUnits, MaxSourceBytes, MaxRequestBytes int
	// AllowNoNamespaces lets the compile service run without its own user and
	// network namespaces when the kernel refuses them.
	AllowNoNamespaces bool
}

func (o Options) withDefaults() Options {
	if o.Python == "" {
		o.Python = "/usr/bin/python3"
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.Queue <= 0 {
		o.Queue = 64
	}
	if o.PerExecution <= 0 {
		o.PerExecution = 4
	}
	o.PerExecution = max(1, min(o.PerExecution, o.Queue/2))
	if o.Timeout <= 0 {
		o.Timeout = 60 * time.Second
	}
	if o.MaxUnits <= 0 {
		o.MaxUnits = 512
	}
	if o.MaxSourceBytes <= 0 {
		o.MaxSourceBytes = 64 << 10
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = 8 << 20
	}
	return o
}

// PythonDir is where the bindings and the frontend live in a toolchain.
func PythonDir(toolchain string) string { return filepath.Join(toolchain, "python") }

// checkToolchain names the first piece a toolchain directory lacks.
func checkToolchain(dir string) error {
	for _, rel := range []string{
		"python/native/__init__.py", "python/native/service.py", "python/native/loader.py",
		"python/spine_runtime.cpython-311-x86_64-linux-gnu.so", "python/spine_loader.cpython-311-x86_64-linux-gnu.so",
		"python/spine_compiler.cpython-311-x86_64-linux-gnu.so",
		"lib/libspine_runtime.so", "lib/libspine_loader.so", "lib/libspine_compiler.so", "include/spine/compiler/codegen_support.h",
	} {
		if _, err := os.Stat(filepath.Join(dir, rel)); err != nil {
			return fmt.Errorf("the native toolchain %s is incomplete (%s is missing): run make build", dir, rel)
		}
	}
	return nil
}

// identity is what every cache key covers besides the function itself: the
// toolchain's every file (frontend, codegen library, runtime ABI headers and,
// through compiler.py, the flags), the C++ compiler's identity and target, and
// the CPU. A change to any of them makes every key new.
func identity(toolchain, cxx string) (string, error) {
	h := sha256.New()
	io.WriteString(h, "spine native module cache v1\n")
	err := walkToolchain(toolchain, func(rel, path string) error {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprintf(h, "file %s\n", rel)
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("cannot read the native toolchain: %w", err)
	}
	for _, arg := range []string{"--version", "-dumpmachine"} {
		out, err := exec.Command(cxx, arg).Output()
		if err != nil {
			return "", fmt.Errorf("the C++ compiler %s does not answer %s: %v", cxx, arg, err)
		}
		fmt.Fprintf(h, "cxx %s\n%s", arg, out)
	}
	fmt.Fprintf(h, "arch %s\n%s", runtime.GOARCH, cpuIdentity())
	return hex.EncodeToString(h.Sum(nil)), nil
}

// walkToolchain calls visit with each file the identity covers: every file
// of the toolchain but Python's bytecode caches (which follow from the
// sources) and the install's stamp, by path relative to the toolchain and
// full path.
func walkToolchain(toolchain string, visit func(rel, path string) error) error {
	return filepath.WalkDir(toolchain, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(toolchain, path)
		if rel == stampFile {
			return nil
		}
		return visit(rel, path)
	})
}

// cpuIdentity is the first processor's vendor, family, model and feature
// flags from /proc/cpuinfo ("" where there is none).
func cpuIdentity() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	var b strings.Builder
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 64<<10), 1<<20)
	for scanner.Scan() {
		line := scanner.Text()
		if strings.TrimSpace(line) == "" {
			break // the first processor only
		}
		key, _, _ := strings.Cut(line, ":")
		switch strings.TrimSpace(key) {
		case "vendor_id", "cpu family", "model", "model name", "flags", "CPU implementer", "CPU part", "Features":
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// Key is the cache key of one unit: the identity, the function's name and
// its source (which carries its types: the annotations).
func key(ident, name, source string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s", ident, name, source)
	return hex.EncodeToString(h.Sum(nil))
}

var errClosed = errors.New("the native compiler is closed")
