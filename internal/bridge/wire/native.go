package wire

import "fmt"

// sendNativeSetup sends the 'N' control frame, before the init frame: the
// zygote imports the module loader from PythonDir before it forks (a
// confined child could not read it), and every child may read CacheDir.
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
