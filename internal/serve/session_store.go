package serve

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// goneRemembered is how many ended sessions are remembered for their 410.
const goneRemembered = 1024

// sessionStore holds the open sessions, and why the recently ended ones ended.
type sessionStore struct {
	max int // open sessions at most; 0: sessions are refused

	mu        sync.Mutex
	open      map[string]*servedSession
	starting  int // sessions being made (counted against max)
	gone      map[string]string
	goneOrder []string // ids, oldest first
}

type servedSession struct {
	session    *host.Session
	opts       host.SessionOptions
	started    time.Time
	executions atomic.Int64
}

func newSessionStore(max int) *sessionStore {
	return &sessionStore{max: max, open: map[string]*servedSession{}, gone: map[string]string{}}
}

// reserve takes a place for a new session, false when every place is taken
// by an open session (ended ones are swept first: an idle timeout ends a
// session without a request).
func (st *sessionStore) reserve() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	for id, s := range st.open {
		if err := s.session.Err(); err != nil {
			st.forget(id, err)
		}
	}
	if len(st.open)+st.starting >= st.max {
		return false
	}
	st.starting++
	return true
}

// add puts a made session in its reserved place (nil: it was not made).
func (st *sessionStore) add(s *servedSession) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.starting--
	if s != nil {
		st.open[s.session.ID()] = s
	}
}

// lookup finds an open session; else why it ended ("" with nil: unknown).
func (st *sessionStore) lookup(id string) (*servedSession, string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if s := st.open[id]; s != nil {
		if err := s.session.Err(); err != nil {
			st.forget(id, err)
			return nil, err.Error()
		}
		return s, ""
	}
	return nil, st.gone[id]
}

// ended records that a session ended (after its Close, or a failed run).
func (st *sessionStore) ended(id string, why error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.open[id] != nil {
		st.forget(id, why)
	}
}

// forget moves a session from the open ones to the remembered ended ones;
// under mu.
func (st *sessionStore) forget(id string, why error) {
	delete(st.open, id)
	if len(st.goneOrder) >= goneRemembered {
		delete(st.gone, st.goneOrder[0])
		st.goneOrder = st.goneOrder[1:]
	}
	st.gone[id] = why.Error()
	st.goneOrder = append(st.goneOrder, id)
}
