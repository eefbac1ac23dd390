package wire

import "fmt"

// The frames of hot functions (see frame.go for the others).
const (
	kNative      = 'n' // child->host: a hot-function request, answered like a call
	kNativeSetup = 'N' // host->zygote: the toolchain's python dir NUL the cache dir, before 'I'
)

// NativeSetup tells the zygote about hot functions: it imports the module
// loader from PythonDir before it forks (a confined child could not read
// it), and every child may read CacheDir, where the host's compile service
// puts modules, and nothing else new. Both paths are absolute.
type NativeSetup struct {
	PythonDir string
	CacheDir  string
}

// sendNativeSetup sends the 'N' control frame, before the init frame.
func (p *Pool) sendNativeSetup() error {
	n := p.opts.Native
	if n == nil {
		return nil
	}
	if err := p.send(frame(kNativeSetup, []byte(n.PythonDir), []byte{0}, []byte(n.CacheDir))); err != nil {
		return fmt.Errorf("%w: spine-guest did not take its native setup: %v%s", ErrCrashed, err, p.diagnostics())
	}
	return nil
}
