package host

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/spine-sandbox/spine/internal/bridge"
)

// Telemetry is off unless configured: an engine made without these options
// creates no span, records no metric and logs nothing.
//
// Spans (WithTracerProvider): "spine.execute" per execution (a stream's from
// Engine.Stream to its end), a child of the span in the context given to
// Execute or Stream, with the attributes spine.isolation, spine.plm and, at
// its end, spine.status and spine.tool_calls; it is an error span unless the
// status is ok. Under it, "execute_tool NAME" per tool call (early calls
// included, timed as they ran), with the attributes spine.tool.name,
// spine.tool.early, spine.tool.stream, spine.tool.claimed,
// spine.tool.mismatch, spine.tool.bytes (the answer's size) and
// spine.tool.status (ok, error, denied, stale, evicted or abandoned). Tool
// handlers receive a context under the execution's span.
//
// Metrics (WithMeterProvider), durations in seconds:
//
//	spine.executions              counter    executions that ended, by spine.status
//	spine.execution.duration      histogram  by spine.status
//	spine.tool.duration           histogram  by spine.tool.name, spine.tool.status, spine.tool.early
//	spine.pool.wait               histogram  time an execution waited for a guest
//	spine.pool.children           gauge      sandboxed children by spine.pool.state (busy, spare, starting)
//	spine.pool.waiting            gauge      executions waiting for a sandboxed child
//	spine.pool.beside_start       counter    sandboxed executions during which a child was being created beside them
//	spine.native.compile.duration histogram  compile time of each function compiled for an execution
//
// Logs (WithLogger): the engine's own events, not the programs' — a guest
// that crashed or broke the policy (warn), a tool call abandoned past
// ToolGrace (warn), a call a hook denied (info), sandbox pool growth and
// children that died before they were ready (info, warn), and every
// execution's end (debug).

// WithTracerProvider traces executions and tool calls with tp.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) error { c.telemetry.tracer = tp; return nil }
}

// WithMeterProvider records the engine's metrics with mp.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) error { c.telemetry.meter = mp; return nil }
}

// WithLogger logs the engine's own events to logger.
func WithLogger(logger *slog.Logger) Option {
	return func(c *config) error { c.telemetry.logger = logger; return nil }
}

type telemetryConfig struct {
	tracer trace.TracerProvider
	meter  metric.MeterProvider
	logger *slog.Logger
}

// instrumentationName names the spans' tracer and the metrics' meter.
const instrumentationName = "github.com/spine-sandbox/spine/host"

// telemetry is an engine's instruments; nil when none is configured (every
// method is then a no-op).
type telemetry struct {
	tracer   trace.Tracer // nil: no spans
	logger   *slog.Logger
	metrics  *metrics // nil: no metrics
	watching metric.Registration
}

// execution is the telemetry of one execution.
type execution struct {
	span  trace.Span // nil without a tracer
	start time.Time
}

func newTelemetry(cfg telemetryConfig) (*telemetry, error) {
	if cfg.tracer == nil && cfg.meter == nil && cfg.logger == nil {
		return nil, nil
	}
	t := &telemetry{logger: cfg.logger}
	if t.logger == nil {
		t.logger = slog.New(slog.DiscardHandler)
	}
	if cfg.tracer != nil {
		t.tracer = cfg.tracer.Tracer(instrumentationName)
	}
	if cfg.meter != nil {
		m, err := newMetrics(cfg.meter.Meter(instrumentationName))
		if err != nil {
			return nil, err
		}
		t.metrics = m
	}
	return t, nil
}

// hook is the telemetry's view of every tool call (nil when off).
func (t *telemetry) hook() []Hook {
	if t == nil {
		return nil
	}
	return []Hook{{After: t.toolCallEnded}}
}

// startExecution opens an execution's span; ctx then carries it to the
// tools and to the spans of the calls.
func (t *telemetry) startExecution(ctx context.Context, req Request, level Isolation) (context.Context, *execution) {
	if t == nil {
		return ctx, nil
	}
	x := &execution{start: time.Now()}
	if t.tracer != nil {
		ctx, x.span = t.tracer.Start(ctx, "spine.execute", trace.WithAttributes(
			attribute.String("spine.isolation", string(level)), attribute.Bool("spine.plm", req.PLM)))
	}
	return ctx, x
}

// executionEnded records how an execution ended: resp is nil when it never
// produced one (the engine closed, a stream abandoned), err then says why.
func (t *telemetry) executionEnded(x *execution, resp *Response, err error) {
	if t == nil || x == nil {
		return
	}
	status, elapsed, calls := endedStatus(err), time.Since(x.start), 0
	if resp != nil {
		status, elapsed, calls = string(resp.Status), resp.Elapsed, len(resp.Calls)
	}
	ctx := context.Background()
	if x.span != nil {
		ctx = trace.ContextWithSpan(ctx, x.span)
		x.span.SetAttributes(attribute.String("spine.status", status), attribute.Int("spine.tool_calls", calls))
		if status != string(StatusOK) {
			message := status
			if resp != nil && resp.Error != "" {
				message = resp.Error
			}
			x.span.SetStatus(codes.Error, message)
		}
		x.span.End()
	}
	if t.metrics != nil {
		t.metrics.executionEnded(ctx, status, elapsed, resp)
	}
	switch Status(status) {
	case StatusCrashed, StatusViolation:
		t.logger.Warn("spine: the guest failed", "status", status, "error", resp.Error)
	}
	t.logger.Debug("spine: execution ended", "status", status, "elapsed", elapsed, "tool_calls", calls)
}

// endedStatus is the status of an execution that produced no response.
func endedStatus(err error) string {
	switch {
	case errors.Is(err, ErrClosed):
		return "closed"
	case errors.Is(err, ErrTimeout):
		return string(StatusTimeout)
	}
	return string(StatusCancelled)
}

// toolCallEnded is the After hook of the telemetry: a span (timed as the
// call ran), its latency, and a log line for what the engine did to it.
func (t *telemetry) toolCallEnded(ctx context.Context, call CallInfo, end CallEnd) {
	status := callStatus(end)
	start := end.Start
	if start.IsZero() {
		start = end.End
	}
	if t.tracer != nil {
		_, span := t.tracer.Start(ctx, "execute_tool "+call.Tool, trace.WithTimestamp(start), trace.WithAttributes(
			attribute.String("spine.tool.name", call.Tool), attribute.Bool("spine.tool.early", call.Early),
			attribute.Bool("spine.tool.stream", call.Stream), attribute.Bool("spine.tool.claimed", call.Claimed),
			attribute.Bool("spine.tool.mismatch", call.Mismatch), attribute.Int("spine.tool.bytes", end.Bytes),
			attribute.String("spine.tool.status", status)))
		if end.Error != "" {
			span.SetStatus(codes.Error, end.Error)
		}
		span.End(trace.WithTimestamp(end.End))
	}
	if t.metrics != nil {
		t.metrics.toolDuration.Record(ctx, end.End.Sub(start).Seconds(), metric.WithAttributes(
			attribute.String("spine.tool.name", call.Tool), attribute.String("spine.tool.status", status),
			attribute.Bool("spine.tool.early", call.Early)))
	}
	switch status {
	case "abandoned":
		t.logger.Warn("spine: tool call abandoned: its tool ignored its context", "tool", call.Tool, "early", call.Early)
	case "denied":
		t.logger.Info("spine: tool call denied by a hook", "tool", call.Tool, "early", call.Early, "error", end.Error)
	}
}

// callStatus names how a call ended, for spans and metrics.
func callStatus(end CallEnd) string {
	switch {
	case end.Denied:
		return "denied"
	case end.Stale:
		return "stale"
	case end.Error == bridge.AbandonedError:
		return "abandoned"
	case end.Error == bridge.EvictedError:
		return "evicted"
	case end.Error != "":
		return "error"
	}
	return "ok"
}

// acquire takes a guest for p, timing the wait.
func (e *Engine) acquire(p *prepared) (bridge.Guest, error) {
	start := time.Now()
	g, err := e.guests.Acquire(p.session)
	if t := e.telemetry; t != nil && t.metrics != nil {
		t.metrics.poolWait.Record(p.session.Context(), time.Since(start).Seconds())
	}
	return g, err
}

// poolCounter is a transport that counts its guests (the sandbox's pool),
// and the executions during which it was creating one beside them.
type poolCounter interface {
	Children() (busy, spare, starting, waiting int)
	Beside() (ended, beside uint64)
}

// watchPool reports the sizes of the engine's pool of guests, if it keeps one.
func (t *telemetry) watchPool(guests bridge.Transport) error {
	pool, ok := guests.(poolCounter)
	if t == nil || t.metrics == nil || !ok {
		return nil
	}
	registration, err := t.metrics.watchPool(pool)
	t.watching = registration
	return err
}

// close stops the pool's gauges.
func (t *telemetry) close() {
	if t != nil && t.watching != nil {
		_ = t.watching.Unregister()
	}
}
