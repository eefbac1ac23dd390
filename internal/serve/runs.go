package serve

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/tracehtml"
)

// runStore keeps the most recent runs for their pages, bounded in number
// and in bytes (a run's program plus its encoded response): the oldest go
// first, and a run larger than the whole budget is not kept.
type runStore struct {
	mu       sync.Mutex
	maxRuns  int
	maxBytes int64
	bytes    int64
	order    []string // ids, oldest first
	byID     map[string]*storedRun
}

type storedRun struct {
	name, source string
	resp         *host.Response
	size         int64
}

func newRunStore(maxRuns int, maxBytes int64) *runStore {
	return &runStore{maxRuns: maxRuns, maxBytes: maxBytes, byID: map[string]*storedRun{}}
}

// add keeps a run and returns its id; kept is false when it was not kept.
func (st *runStore) add(name, source string, resp *host.Response, encodedBytes int) (id string, kept bool) {
	size := int64(len(source) + encodedBytes)
	if st.maxRuns == 0 || size > st.maxBytes {
		return "", false
	}
	id = newRunID()
	st.mu.Lock()
	defer st.mu.Unlock()
	for len(st.order) > 0 && (len(st.order) >= st.maxRuns || st.bytes+size > st.maxBytes) {
		oldest := st.order[0]
		st.order = st.order[1:]
		st.bytes -= st.byID[oldest].size
		delete(st.byID, oldest)
	}
	st.order = append(st.order, id)
	st.byID[id] = &storedRun{name: name, source: source, resp: resp, size: size}
	st.bytes += size
	return id, true
}

func (st *runStore) get(id string) *storedRun {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.byID[id]
}

// newRunID is random, not a counter: a run's page shows its program and
// values, and one client must not be able to walk to another's.
func newRunID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *Server) handleRunPage(w http.ResponseWriter, r *http.Request) {
	run := s.runs.get(r.PathValue("id"))
	if run == nil {
		writeError(w, http.StatusNotFound, "no such run here: runs are kept in memory, the most recent only, on the replica that ran them")
		return
	}
	title := run.name
	if title == "" {
		title = r.PathValue("id")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", tracehtml.ContentSecurityPolicy)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if err := tracehtml.Render(w, tracehtml.Page{Title: title, Source: run.source, Response: run.resp}); err != nil {
		s.opts.Logger.Warn("spine serve: rendering a run's page", "error", err)
	}
}
