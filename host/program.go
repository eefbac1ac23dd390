package host

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spine-sandbox/spine/internal/protocol"
)

// ErrSyntax: Engine.Compile found that the program does not compile; the
// error is a *SyntaxError.
var ErrSyntax = errors.New("spine: the program does not compile")

// SyntaxError is the error of Engine.Compile for a program that does not
// compile (errors.As reaches it; errors.Is matches ErrSyntax).
type SyntaxError struct {
	Line      int    // the program's line (1-based; 0 if Python named none)
	Message   string // Python's, e.g. "SyntaxError: invalid syntax"
	Traceback string // as Response.Traceback shows it
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s: line %d: %s", ErrSyntax, e.Line, e.Message)
}

// Is makes errors.Is(err, ErrSyntax) true.
func (e *SyntaxError) Is(target error) bool { return target == ErrSyntax }

// CompileOptions are what a program is compiled for.
type CompileOptions struct {
	// PLM rewrites the program so independent tool calls run in parallel
	// (as Request.PLM); the rewrite is done once, here.
	PLM bool
	// Tools names the tools the program may call (as Request.Tools; nil:
	// all of the engine's). PLM's rewrite depends on them.
	Tools []string
	// Name is the program's name in tracebacks (as Request.Name).
	Name string
}

// Program is a program compiled once by Engine.Compile: checked for syntax
// errors, rewritten by PLM when asked, and compiled to a code object that
// every execution of it runs as it is, in either isolation (no guest parses
// or rewrites it again). It is immutable and safe for concurrent use by any
// number of executions, of any engine: one whose tools, fan-out limit or
// PLM setting differ from those it was compiled for (or that compiles
// natively) runs it from its source instead, with the same meaning.
type Program struct {
	source      string
	opts        CompileOptions
	manifest    []byte // the tools it was compiled against
	fanout      int
	compiled    protocol.Compiled
	transformed string
}

// Source is the program's text.
func (p *Program) Source() string { return p.source }

// Transformed is the program as PLM rewrote it ("" when it did not).
func (p *Program) Transformed() string { return p.transformed }

// Compile compiles source for this engine's tools without running it. A
// program that does not compile is a *SyntaxError (with its line); other
// failures are *ExecError, as for Execute. Compiling runs in a guest of
// the engine's isolation, bounded by ctx and the engine's timeout.
func (e *Engine) Compile(ctx context.Context, source string, opts CompileOptions) (*Program, error) {
	req := Request{Source: source, PLM: opts.PLM, Tools: opts.Tools, Name: opts.Name, compileOnly: true}
	_, _, manifest, err := e.resolveRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := e.Execute(ctx, req)
	if err != nil {
		var failed *ExecError
		if errors.As(err, &failed) && failed.Kind == ErrGuest && resp != nil {
			return nil, &SyntaxError{Line: resp.Line, Message: resp.Error, Traceback: resp.Traceback}
		}
		return nil, err
	}
	p := &Program{source: source, opts: opts, manifest: manifest, fanout: e.limits.Fanout}
	if err := json.Unmarshal(resp.Value, &p.compiled); err != nil || p.compiled.Code == "" {
		return nil, &ExecError{Kind: ErrSandbox, Message: "the guest's compiled program is unreadable"}
	}
	p.transformed = p.compiled.Transformed
	return p, nil
}

// withProgram is req with its Program's source, PLM and name filled in.
func withProgram(req Request) (Request, error) {
	p := req.Program
	if p == nil {
		return req, nil
	}
	if req.Source != "" {
		return req, &ExecError{Kind: ErrBadRequest, Message: "Request.Source and Request.Program are both set"}
	}
	req.Source = p.source
	req.PLM = req.PLM || p.opts.PLM
	if req.Name == "" {
		req.Name = p.opts.Name
	}
	return req, nil
}

// compiledFor is the program's compiled form if it fits this execution
// exactly (same tools, fan-out and PLM, not native), else nil: the guest
// then compiles the source.
func (p *Program) compiledFor(req Request, manifest []byte, fanout int) *protocol.Compiled {
	if p == nil || req.PLM != p.opts.PLM || (req.Native != "" && req.Native != NativeOff) || fanout != p.fanout ||
		!bytes.Equal(manifest, p.manifest) {
		return nil
	}
	return &p.compiled
}
