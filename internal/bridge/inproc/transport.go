package inproc

import "github.com/spine-sandbox/spine/internal/bridge"

// Transport is the in-process transport. Every guest it hands out is the one
// interpreter of this process; executions take turns on its thread.
type Transport struct{}

// Acquire binds the interpreter to the session.
func (Transport) Acquire(s *bridge.Session) (bridge.Guest, error) {
	if err := Start(); err != nil {
		return nil, err
	}
	return bound{s}, nil
}

// Level is "inproc".
func (Transport) Level() string { return "inproc" }

type bound struct{ s *bridge.Session }

func (g bound) Execute(request []byte) (*bridge.Result, error) { return Execute(g.s, request) }
func (g bound) Entry(name string, arg []byte) error            { return Entry(g.s, name, arg) }
func (g bound) Release()                                       {}
