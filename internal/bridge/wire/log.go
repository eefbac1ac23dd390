package wire

// The pool reports its own events to Options.Logger: growth past the most
// children it had, children that died before they were ready (admit.go),
// and the zygote's end. Executions are the host's to report.

// grownLocked is the number of children alive once the forks asked for
// start, when that is more than ever before; 0 otherwise.
func (p *Pool) grownLocked() int {
	alive := p.busy + p.ready.len() + p.starting
	if alive <= p.peak {
		return 0
	}
	p.peak = alive
	return alive
}

// zygoteGone logs the zygote's end, unless the pool closed it.
func (p *Pool) zygoteGone(cause error) {
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if !closed {
		p.opts.Logger.Error("spine: the sandbox zygote is gone: no sandboxed child can start any more", "error", cause)
	}
}
