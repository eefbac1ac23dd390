// Package serve is `spine serve`: an HTTP JSON service over one engine.
//
//	POST /v1/run        a host.Request's JSON form in, a host.Response's out
//	POST /v1/stream     the program as the (chunked) body, tool calls starting
//	                    while it arrives; the request's other members in the
//	                    Spine-Request header; a host.Response's JSON out
//	GET  /v1/tools      the tools' specs (JSON Schemas) and Python stubs
//	GET  /v1/runs/{id}  the trace page of a recent run (this replica's)
//	POST /v1/resume     a suspended run's journal and a decision in, a
//	                    host.Response's JSON out
//	POST /v1/sessions   start a session (options in, its id out)
//	GET, DELETE /v1/sessions/{id}, POST /v1/sessions/{id}/run and /stream
//	                    a session's state, its end, and runs in its namespace
//	GET  /healthz       liveness and readiness
//	GET  /metrics       the engine's metrics, Prometheus text format
//
// A request is served by itself: no state carried to the next one, so
// replicas behind any load balancer are interchangeable (a journal is data,
// so any replica resumes it). Sessions are the exception: a session's
// namespace lives in a child of the replica that made it, so its requests
// need affinity. The recent runs kept for their pages are the other, only
// for looking at: a run's page is on the replica that ran it (its id comes
// back in the Spine-Run header).
package serve

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/spine-sandbox/spine/host"
)

// Options configure a Server; a zero field takes its default.
type Options struct {
	// Token, when set, is the bearer token every request but /healthz must
	// carry (Authorization: Bearer TOKEN).
	Token string
	// MaxRequestBytes bounds the body of /v1/run and the program of
	// /v1/stream (default 4 MiB); past it the answer is 413.
	MaxRequestBytes int64
	// BodyTimeout bounds how long a request's body may take to arrive
	// (default 5 minutes): a streamed program holds a sandboxed child while
	// it arrives, and a client that trickles it must not hold one for ever.
	// Past it the stream is aborted (its calls cancelled) and the answer is
	// 408.
	BodyTimeout time.Duration
	// Runs is how many recent runs are kept for /v1/runs/{id} (default 100;
	// negative: none), RunBytes the bytes they may hold together (their
	// programs and responses; default 64 MiB).
	Runs     int
	RunBytes int64
	// MaxSessions is how many sessions may be open at once (default 16;
	// negative: none); past it POST /v1/sessions answers 503. Each open
	// session holds a sandboxed child of the engine's pool.
	MaxSessions int
	// SessionLimits bound what a session may ask for, and are what it gets
	// when it asks for nothing (zero fields: the host's defaults; a zero
	// MemoryBytes bounds nothing beyond the sandbox's per-child limit).
	SessionLimits host.SessionOptions
	// Logger receives the service's own events (default: discarded).
	Logger *slog.Logger
}

// Server serves one engine over HTTP.
type Server struct {
	engine   *host.Engine
	opts     Options
	metrics  *sdkmetric.ManualReader
	meters   *sdkmetric.MeterProvider
	runs     *runStore
	sessions *sessionStore
	mux      *http.ServeMux
}

const (
	defaultMaxRequestBytes = 4 << 20
	defaultBodyTimeout     = 5 * time.Minute
	defaultRuns            = 100
	defaultRunBytes        = 64 << 20
	defaultMaxSessions     = 16
)

// secondsBuckets gives the histograms in seconds boundaries from a
// millisecond to a minute: the SDK's default ones (0, 5, 10 ... 10000) are
// made for milliseconds and would put every execution in one bucket.
var secondsBuckets = sdkmetric.NewView(sdkmetric.Instrument{Kind: sdkmetric.InstrumentKindHistogram, Unit: "s"},
	sdkmetric.Stream{Aggregation: sdkmetric.AggregationExplicitBucketHistogram{
		Boundaries: []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}}})

// New makes the engine from engineOptions (adding its meter provider, whose
// metrics /metrics serves) and the server around it.
func New(opts Options, engineOptions ...host.Option) (*Server, error) {
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = defaultMaxRequestBytes
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = defaultBodyTimeout
	}
	if opts.Runs == 0 {
		opts.Runs = defaultRuns
	}
	if opts.RunBytes <= 0 {
		opts.RunBytes = defaultRunBytes
	}
	if opts.MaxSessions == 0 {
		opts.MaxSessions = defaultMaxSessions
	}
	opts.SessionLimits = opts.SessionLimits.WithDefaults()
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	reader := sdkmetric.NewManualReader()
	meters := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithView(secondsBuckets))
	engine, err := host.New(append(engineOptions, host.WithMeterProvider(meters))...)
	if err != nil {
		_ = meters.Shutdown(context.Background())
		return nil, err
	}
	s := &Server{engine: engine, opts: opts, metrics: reader, meters: meters,
		runs: newRunStore(max(opts.Runs, 0), opts.RunBytes), sessions: newSessionStore(max(opts.MaxSessions, 0)),
		mux: http.NewServeMux()}
	s.mux.HandleFunc("POST /v1/run", s.handleRun)
	s.mux.HandleFunc("POST /v1/stream", s.handleStream)
	s.mux.HandleFunc("GET /v1/tools", s.handleTools)
	s.mux.HandleFunc("GET /v1/runs/{id}", s.handleRunPage)
	s.mux.HandleFunc("POST /v1/resume", s.handleResume)
	s.mux.HandleFunc("POST /v1/sessions", s.handleNewSession)
	s.mux.HandleFunc("GET /v1/sessions/{id}", s.handleSession)
	s.mux.HandleFunc("DELETE /v1/sessions/{id}", s.handleCloseSession)
	s.mux.HandleFunc("POST /v1/sessions/{id}/run", s.handleSessionRun)
	s.mux.HandleFunc("POST /v1/sessions/{id}/stream", s.handleSessionStream)
	s.mux.HandleFunc("GET /healthz", s.handleHealth)
	s.mux.HandleFunc("GET /metrics", s.handleMetrics)
	return s, nil
}

// Engine is the engine the server runs programs on.
func (s *Server) Engine() *host.Engine { return s.engine }

// ServeHTTP checks the bearer token (when one is set), then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Token != "" && r.URL.Path != "/healthz" && !s.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="spine"`)
		writeError(w, http.StatusUnauthorized, "a bearer token is required (Authorization: Bearer TOKEN)")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// authorized compares in constant time, so the time taken says nothing of
// how much of a guess was right.
func (s *Server) authorized(r *http.Request) bool {
	want := "Bearer " + s.opts.Token
	return subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte(want)) == 1
}

// Close closes the engine (waiting for what runs) and the metrics.
func (s *Server) Close() error {
	return errors.Join(s.engine.Close(), s.meters.Shutdown(context.Background()))
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "isolation": s.engine.Isolation()})
}

// toolsJSON is the answer of /v1/tools.
type toolsJSON struct {
	Tools []host.ToolSpec `json:"tools"`
	Stubs string          `json:"stubs"`
}

func (s *Server) handleTools(w http.ResponseWriter, r *http.Request) {
	tools := s.engine.Tools()
	if tools == nil {
		tools = []host.ToolSpec{}
	}
	writeJSON(w, http.StatusOK, toolsJSON{Tools: tools, Stubs: s.engine.Stubs()})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	encoded, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(encoded, '\n'))
}

// errorJSON is the body of every answer that is not a Response.
type errorJSON struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, code int, message string) {
	encoded, _ := json.Marshal(errorJSON{Error: message})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(encoded, '\n'))
}
