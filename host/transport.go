package host

import (
	"fmt"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/bridge/inproc"
	"github.com/spine-sandbox/spine/internal/bridge/wire"
)

// newTransport makes the transport of the configured isolation, ready for
// hot functions when native is set. It is the one place that names a
// transport: everything else drives guests through bridge.Transport.
func newTransport(cfg config, native *bridge.NativeSetup) (bridge.Transport, error) {
	if cfg.isolation == Inproc {
		return inproc.New(native)
	}
	opts := cfg.sandbox
	binary, err := guestBinary(opts.Binary)
	if err != nil {
		return nil, err
	}
	pool, err := wire.NewPool(wire.Options{Binary: binary, Prefork: opts.Prefork, MaxChildren: opts.MaxChildren,
		MemoryBytes: opts.MemoryBytes, CPUSeconds: opts.CPUSeconds, AllowNoNamespaces: opts.AllowNoNamespaces,
		AllowNoLandlock: opts.AllowNoLandlock, Native: native, Logger: cfg.telemetry.logger})
	if err != nil {
		return nil, fmt.Errorf("spine: %w", err)
	}
	return pool, nil
}
