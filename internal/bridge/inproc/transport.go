package inproc

import (
	"context"
	"fmt"

	"github.com/spine-sandbox/spine/internal/bridge"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// Transport is the in-process transport. Every guest it hands out is the one
// interpreter of this process; each execution runs on its caller's thread,
// and executions overlap wherever they release the GIL.
type Transport struct{}

// New starts the interpreter (once per process) and, when native is set,
// loads the native module loader into it.
func New(native *bridge.NativeSetup) (Transport, error) {
	if err := Start(); err != nil {
		return Transport{}, err
	}
	if native != nil {
		s := bridge.NewSession(context.Background(), bridge.Config{})
		defer s.Close()
		if err := Entry(s, protocol.EntryNativeSetup, []byte(native.PythonDir)); err != nil {
			return Transport{}, fmt.Errorf("spine: native functions unavailable in process: %w", err)
		}
	}
	return Transport{}, nil
}

// Acquire binds the interpreter to the session.
func (Transport) Acquire(s *bridge.Session) (bridge.Guest, error) {
	if err := Start(); err != nil {
		return nil, err
	}
	return bound{s}, nil
}

// Level is "inproc".
func (Transport) Level() string { return "inproc" }

// Describe is "inproc": no isolation.
func (Transport) Describe() string { return "inproc" }

// Close does nothing: the interpreter lives as long as the process.
func (Transport) Close() error { return nil }

type bound struct{ s *bridge.Session }

func (g bound) Execute(request []byte) (*bridge.Result, error) { return Execute(g.s, request) }
func (g bound) Entry(name string, arg []byte) error            { return Entry(g.s, name, arg) }
func (g bound) Release()                                       {}
