package host

import (
	"context"
	"errors"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// metrics are the engine's instruments (see telemetry.go for the list).
type metrics struct {
	meter             metric.Meter
	executions        metric.Int64Counter
	executionDuration metric.Float64Histogram
	toolDuration      metric.Float64Histogram
	poolWait          metric.Float64Histogram
	compileDuration   metric.Float64Histogram
	poolChildren      metric.Int64ObservableGauge
	poolWaiting       metric.Int64ObservableGauge
	poolBesideStart   metric.Int64ObservableCounter
}

func newMetrics(meter metric.Meter) (*metrics, error) {
	m := &metrics{meter: meter}
	var errs [8]error
	m.executions, errs[0] = meter.Int64Counter("spine.executions",
		metric.WithDescription("Executions that ended, by status."), metric.WithUnit("{execution}"))
	m.executionDuration, errs[1] = meter.Float64Histogram("spine.execution.duration",
		metric.WithDescription("Wall time of an execution."), metric.WithUnit("s"))
	m.toolDuration, errs[2] = meter.Float64Histogram("spine.tool.duration",
		metric.WithDescription("Wall time of a tool call, as it ran."), metric.WithUnit("s"))
	m.poolWait, errs[3] = meter.Float64Histogram("spine.pool.wait",
		metric.WithDescription("Time an execution waited for a guest."), metric.WithUnit("s"))
	m.compileDuration, errs[4] = meter.Float64Histogram("spine.native.compile.duration",
		metric.WithDescription("Compile time of a function compiled to native code for an execution."), metric.WithUnit("s"))
	m.poolChildren, errs[5] = meter.Int64ObservableGauge("spine.pool.children",
		metric.WithDescription("Sandboxed children, by state (busy, spare, starting)."), metric.WithUnit("{child}"))
	m.poolWaiting, errs[6] = meter.Int64ObservableGauge("spine.pool.waiting",
		metric.WithDescription("Executions waiting for a sandboxed child."), metric.WithUnit("{execution}"))
	m.poolBesideStart, errs[7] = meter.Int64ObservableCounter("spine.pool.beside_start",
		metric.WithDescription("Sandboxed executions during which a child was being created (forked, confined, warmed up) beside them."),
		metric.WithUnit("{execution}"))
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}
	return m, nil
}

// executionEnded records an execution's status, wall time and the compile
// time of the functions compiled for it.
func (m *metrics) executionEnded(ctx context.Context, status string, elapsed time.Duration, resp *Response) {
	byStatus := metric.WithAttributes(attribute.String("spine.status", status))
	m.executions.Add(ctx, 1, byStatus)
	m.executionDuration.Record(ctx, elapsed.Seconds(), byStatus)
	if resp == nil {
		return
	}
	for _, f := range resp.Native {
		if f.Cache == "miss" && f.CompileTime > 0 {
			m.compileDuration.Record(ctx, f.CompileTime.Seconds())
		}
	}
}

// watchPool reports the pool's sizes at each collection.
func (m *metrics) watchPool(pool poolCounter) (metric.Registration, error) {
	busy := metric.WithAttributes(attribute.String("spine.pool.state", "busy"))
	spare := metric.WithAttributes(attribute.String("spine.pool.state", "spare"))
	starting := metric.WithAttributes(attribute.String("spine.pool.state", "starting"))
	return m.meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		b, s, st, w := pool.Children()
		o.ObserveInt64(m.poolChildren, int64(b), busy)
		o.ObserveInt64(m.poolChildren, int64(s), spare)
		o.ObserveInt64(m.poolChildren, int64(st), starting)
		o.ObserveInt64(m.poolWaiting, int64(w))
		_, beside := pool.Beside()
		o.ObserveInt64(m.poolBesideStart, int64(beside))
		return nil
	}, m.poolChildren, m.poolWaiting, m.poolBesideStart)
}
