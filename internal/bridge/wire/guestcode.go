package wire

import (
	"bytes"
	"fmt"

	"github.com/spine-sandbox/spine/guest"
	"github.com/spine-sandbox/spine/internal/guestcache"
)

// sendModules sends the guest modules' sources and, for each whose code the
// cache kept from an earlier start, that code: the zygote runs it instead of
// compiling the source when its interpreter made it (guestcache). The
// zygote never opens the cache: it only sees what arrives here.
func (p *Pool) sendModules(modules []guest.Module, code *guestcache.Cache) error {
	for _, m := range modules {
		name := append([]byte(m.Name), 0)
		if err := p.sendChunks(kModule, name, m.Source); err != nil {
			return fmt.Errorf("%w: spine-guest did not take its modules: %v", ErrCrashed, err)
		}
		kept, err := code.Load(m)
		if err != nil {
			continue // compiled from source, and kept after the hello
		}
		if err := p.sendChunks(kCode, name, kept); err != nil {
			return fmt.Errorf("%w: spine-guest did not take its modules' code: %v", ErrCrashed, err)
		}
	}
	return nil
}

// addCompiled appends one 'K' frame (name NUL code chunk) to what the
// zygote compiled, by module; a frame for no guest module is malformed, and
// so is more code than maxCompiledSize of its source.
func addCompiled(compiled map[string][]byte, modules []guest.Module, payload []byte) error {
	name, chunk, ok := bytes.Cut(payload, []byte{0})
	if ok {
		for _, m := range modules {
			if m.Name == string(name) {
				if len(compiled[m.Name])+len(chunk) > maxCompiledSize(m) {
					return fmt.Errorf("%w: spine-guest sent more compiled code for %s than its source can make", ErrViolation, m.Name)
				}
				compiled[m.Name] = append(compiled[m.Name], chunk...)
				return nil
			}
		}
	}
	return fmt.Errorf("%w: spine-guest sent compiled code for no guest module", ErrViolation)
}

// maxCompiledSize bounds the code the host takes for module m.
func maxCompiledSize(m guest.Module) int { return guestcache.MaxCodeSize(len(m.Source)) }

// keepCompiled stores what the zygote compiled for the next start; a cache
// that cannot be written only means compiling again then.
func (p *Pool) keepCompiled(code *guestcache.Cache, modules []guest.Module, compiled map[string][]byte) {
	if err := code.StoreAll(modules, compiled); err != nil {
		p.opts.Logger.Warn("guest code cache not written", "dir", code.Dir(), "error", err)
	}
}
