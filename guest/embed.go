// Package guest carries the guest's Python sources, built into every binary
// that embeds or launches the interpreter, so `bin/spine` runs from any
// directory without a Python tree of ours on disk.
package guest

import (
	"embed"
	"fmt"
	"sync"
)

//go:embed protocol.py policy.py sandbox_policy.py early.py effects.py aio.py plm.py prefix.py hot.py determinism.py bootstrap.py
var files embed.FS

// Module is one guest module's name and source.
type Module struct {
	Name   string
	Source []byte
}

// loadOrder lists the modules in the order the runtime must load them: each
// after the modules it imports at load time (plm, prefix and hot import
// policy; plm, prefix and bootstrap import early; plm and prefix import
// effects; bootstrap imports protocol, early, aio and prefix at load time
// and plm / hot / determinism lazily, so it comes last).
var loadOrder = []string{"protocol", "policy", "sandbox_policy", "early", "effects", "aio", "plm", "prefix", "hot", "determinism", "bootstrap"}

// Modules returns the guest modules in load order. They are read once per
// process and shared: callers must not modify them (the guest code cache
// and the kept plans' key hash them, and only once: guestcache).
func Modules() []Module { return modules() }

var modules = sync.OnceValue(func() []Module {
	out := make([]Module, 0, len(loadOrder))
	for _, name := range loadOrder {
		source, err := files.ReadFile(name + ".py")
		if err != nil {
			panic(fmt.Sprintf("guest: embedded module %s missing: %v", name, err))
		}
		out = append(out, Module{Name: name, Source: source})
	}
	return out
})
