package wire

import "sync"

// readyStack holds forked children until an execution takes one. It is a
// stack, not a queue: the child that warmed itself up last is the one whose
// pages are most likely still in the CPU's caches and TLB, and it goes to
// the next execution (measured: the first json.loads and compile of an
// execution cost several times more in a child that warmed up long ago).
type readyStack struct {
	mu       sync.Mutex
	children []*child
	capacity int
	signal   chan struct{} // a token while children may be waiting
}

func newReadyStack(capacity int) *readyStack {
	return &readyStack{capacity: capacity, signal: make(chan struct{}, 1)}
}

// push adds a child; false when the stack is full (the caller drops it).
func (r *readyStack) push(c *child) bool {
	r.mu.Lock()
	if len(r.children) >= r.capacity {
		r.mu.Unlock()
		return false
	}
	r.children = append(r.children, c)
	r.mu.Unlock()
	r.notify()
	return true
}

// pop takes the newest child, or nil.
func (r *readyStack) pop() *child {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.children)
	if n == 0 {
		return nil
	}
	c := r.children[n-1]
	r.children[n-1] = nil
	r.children = r.children[:n-1]
	if n > 1 {
		r.notify() // more are left: another waiter may take one
	}
	return c
}

// drain removes and returns every child.
func (r *readyStack) drain() []*child {
	r.mu.Lock()
	defer r.mu.Unlock()
	all := r.children
	r.children = nil
	return all
}

func (r *readyStack) notify() {
	select {
	case r.signal <- struct{}{}:
	default:
	}
}

// len is how many children wait.
func (r *readyStack) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.children)
}
