package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/native"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// NativeMode is what an execution does with its eligible functions:
// module-level functions with full int/float/bool annotations, in the subset
// the compiler supports, that call no tools and do no I/O.
type NativeMode string

// The native modes.
const (
	// NativeOff (the default, also "") runs every function in CPython.
	NativeOff NativeMode = "off"
	// NativeEager compiles every eligible function (or takes it from the
	// cache) before the program runs.
	NativeEager NativeMode = "eager"
	// NativeAuto compiles a function in the background once it is hot
	// (NativeOptions.HotCalls calls) and switches to it when it is ready; the
	// program never waits for the compiler. A cached module switches at once.
	NativeAuto NativeMode = "auto"
)

// NativeOptions configure hot functions. Zero fields take defaults.
type NativeOptions struct {
	// Toolchain is the directory make build puts beside bin/spine
	// (bin/spine-native: compiler binding, libraries, codegen headers);
	// default $SPINE_NATIVE, else spine-native beside the executable.
	Toolchain string
	// CacheDir keeps compiled modules across engines and processes
	// (default: the user's cache directory, spine/native). A sandboxed child
	// sees none of it: it receives each module it loads as a descriptor of a
	// sealed copy. private/ keeps the generated C++ and remembered failures,
	// which quote programs.
	CacheDir string
	// HotCalls is how many calls make a function hot in NativeAuto (default 1000).
	HotCalls int
	// Workers compile at once, engine-wide (default 1).
	Workers int
	// CompileTimeout bounds one compilation (default 60s).
	CompileTimeout time.Duration
	// AllowNoNamespaces lets the compile service run without its own user
	// and network namespaces when the kernel refuses them.
	AllowNoNamespaces bool
}

// WithNative enables hot functions: requests may then ask for NativeEager or
// NativeAuto. New fails when the toolchain or g++ is missing.
func WithNative(opts NativeOptions) Option {
	return func(c *config) error {
		if opts.HotCalls < 0 || opts.Workers < 0 || opts.CompileTimeout < 0 {
			return errors.New("spine: native options must not be negative")
		}
		c.native = &opts
		return nil
	}
}

// NativeFunction is one module-level function of the program in the trace.
type NativeFunction struct {
	Name string
	// Status is "native" (its binding ran compiled code) or "python".
	Status string
	// Reason says why it stayed Python ("" when native).
	Reason string
	// Cache is "hit" (found compiled, or found failing, in the cache), "miss"
	// (compiled for this execution), or "" (never handed to the compiler).
	Cache string
	// CompileTime is the compile service's time for a miss.
	CompileTime time.Duration
	// SwitchedAfter is how many calls ran in Python before the switch (0 in
	// eager mode and on a cache hit).
	SwitchedAfter int
	// Fallbacks counts calls the Python version computed because native code
	// could not represent them (int64 overflow, keyword arguments, ...).
	Fallbacks int
}

func toolchainDir(configured string) (string, error) {
	path, looked := nativeArtefact.locate(configured)
	if path != "" {
		return path, nil
	}
	return "", nativeArtefact.missing(looked, "NativeOptions.Toolchain", "native functions")
}

// startNative makes the compiler; the guests learn about it in setupNative.
func startNative(opts *NativeOptions) (*native.Compiler, error) {
	dir, err := toolchainDir(opts.Toolchain)
	if err != nil {
		return nil, err
	}
	c, err := native.New(native.Options{Toolchain: dir, CacheDir: opts.CacheDir, Workers: opts.Workers,
		Timeout: opts.CompileTimeout, AllowNoNamespaces: opts.AllowNoNamespaces})
	if err != nil {
		return nil, fmt.Errorf("spine: native functions unavailable: %w", err)
	}
	return c, nil
}

// nativeSetup is what the guests need of the compiler: where its module
// loader is. They read nothing of the cache: a sandboxed child receives each
// module as a descriptor, a guest in this process the path of each.
func nativeSetup(c *native.Compiler) *bridge.NativeSetup {
	return &bridge.NativeSetup{PythonDir: c.PythonDir()}
}

// nativeFor checks a request's mode and starts its native session.
func (e *Engine) nativeFor(ctx context.Context, mode NativeMode) (*protocol.NativeMode, *native.Session, error) {
	switch mode {
	case "", NativeOff:
		return nil, nil, nil
	case NativeEager, NativeAuto:
	default:
		return nil, nil, &ExecError{Kind: ErrBadRequest, Message: fmt.Sprintf("unknown native mode %q (have: off, eager, auto)", mode)}
	}
	if e.native == nil {
		return nil, nil, &ExecError{Kind: ErrBadRequest, Message: "native functions are not enabled on this engine " +
			"(create it with host.WithNative; spine run --native does)"}
	}
	return &protocol.NativeMode{Mode: string(mode), Hot: e.hotCalls}, e.native.Session(ctx, string(mode)), nil
}

const maxNativeEntries = 4096

// nativeTrace merges the guest's report (what its bindings ran) with the
// host's records (what was compiled and handed out): the guest cannot claim
// native code for a function the host never gave it a module for.
func nativeTrace(report json.RawMessage, s *native.Session) []NativeFunction {
	if s == nil {
		return nil
	}
	records := map[string]native.Record{}
	for _, r := range s.Records() {
		records[r.Name] = r
	}
	var entries []protocol.NativeReport
	if len(report) == 0 || json.Unmarshal(report, &entries) != nil || len(entries) > maxNativeEntries {
		entries = nil
		for _, r := range s.Records() {
			entries = append(entries, protocol.NativeReport{Name: r.Name, Reason: "the guest sent no report (the execution failed)"})
		}
	}
	out := make([]NativeFunction, 0, len(entries))
	for _, g := range entries {
		f := NativeFunction{Name: clipText(g.Name, 128), Status: "python", Reason: clipText(g.Reason, 2000)}
		r, known := records[g.Name]
		if known {
			f.Cache, f.CompileTime = r.Cache, r.Compile
		}
		if g.Status == "native" {
			if known && r.Status == native.StatusReady {
				f.Status, f.Reason, f.SwitchedAfter, f.Fallbacks = "native", "", g.SwitchedAfter, g.Fallbacks
			} else {
				f.Reason = "the guest claimed native code the host never compiled for it"
			}
		}
		out = append(out, f)
	}
	return out
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
