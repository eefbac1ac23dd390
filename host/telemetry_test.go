package host_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/spine-sandbox/spine/host"
)

// spanAttrs is a span's attributes by key, as strings.
func spanAttrs(kvs []attribute.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		out[string(kv.Key)] = kv.Value.Emit()
	}
	return out
}

// A PLM run is one execution span, a child of the caller's span, and under
// it one span per tool call, timed as the call ran: the calls PLM started
// early say early and claimed, the effectful one neither.
func TestTelemetrySpansOfAPLMRun(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		exporter := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))
		e := m.engine(t, host.WithTracerProvider(tp))
		ctx, caller := tp.Tracer("test").Start(context.Background(), "caller")
		resp, err := e.Execute(ctx, host.Request{PLM: true,
			Source: "a = lookup(key=1)\nb = lookup(key=2)\nc = echo(x=a)\nemit(value=b)\nresult = [a, b, c]"})
		caller.End()
		if err != nil {
			t.Fatalf("%v (%s)", err, errorOf(resp))
		}
		var execution tracetest.SpanStub
		var tools []tracetest.SpanStub
		for _, s := range exporter.GetSpans() {
			switch {
			case s.Name == "spine.execute":
				execution = s
			case strings.HasPrefix(s.Name, "execute_tool "):
				tools = append(tools, s)
			}
		}
		if execution.Name == "" || execution.Parent.SpanID() != caller.SpanContext().SpanID() {
			t.Fatalf("no execution span under the caller's: %+v", exporter.GetSpans())
		}
		want := map[string]string{"spine.isolation": string(m.level), "spine.plm": "true", "spine.status": "ok", "spine.tool_calls": "4"}
		if got := spanAttrs(execution.Attributes); !reflect.DeepEqual(got, want) {
			t.Fatalf("execution span attributes %v, want %v", got, want)
		}
		var got []string
		for _, s := range tools {
			if s.Parent.SpanID() != execution.SpanContext.SpanID() || s.SpanContext.TraceID() != execution.SpanContext.TraceID() {
				t.Fatalf("tool span %s is not a child of the execution's", s.Name)
			}
			if s.StartTime.Before(execution.StartTime) || s.EndTime.After(execution.EndTime) || s.EndTime.Before(s.StartTime) {
				t.Fatalf("tool span %s is not timed within its execution", s.Name)
			}
			a := spanAttrs(s.Attributes)
			got = append(got, fmt.Sprintf("%s %s early=%s claimed=%s stream=%s mismatch=%s status=%s bytes=%s", s.Name,
				a["spine.tool.name"], a["spine.tool.early"], a["spine.tool.claimed"], a["spine.tool.stream"],
				a["spine.tool.mismatch"], a["spine.tool.status"], a["spine.tool.bytes"]))
		}
		sort.Strings(got)
		wantTools := []string{
			"execute_tool echo echo early=true claimed=true stream=false mismatch=false status=ok bytes=" + fmt.Sprint(len(`{"value":{"x":7}}`)),
			"execute_tool emit emit early=false claimed=false stream=false mismatch=false status=ok bytes=" + fmt.Sprint(len(`{"value":1}`)),
			"execute_tool lookup lookup early=true claimed=true stream=false mismatch=false status=ok bytes=" + fmt.Sprint(len(`{"value":14}`)),
			"execute_tool lookup lookup early=true claimed=true stream=false mismatch=false status=ok bytes=" + fmt.Sprint(len(`{"value":7}`)),
		}
		sort.Strings(wantTools)
		if !reflect.DeepEqual(got, wantTools) {
			t.Fatalf("tool spans\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantTools, "\n"))
		}
	})
}

// A program that raises makes an error span; a tool's failure marks its
// call's span as an error, with the status error.
func TestTelemetryErrorSpans(t *testing.T) {
	exporter := tracetest.NewInMemoryExporter()
	e := engineIn(t, host.Inproc, host.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSyncer(exporter))))
	resp, _ := e.Execute(context.Background(), host.Request{Source: "fail(message='boom')"})
	if resp.Status != host.StatusError {
		t.Fatalf("status %s", resp.Status)
	}
	byName := map[string]tracetest.SpanStub{}
	for _, s := range exporter.GetSpans() {
		byName[s.Name] = s
	}
	execution, call := byName["spine.execute"], byName["execute_tool fail"]
	if execution.Status.Code != codes.Error || !strings.HasPrefix(execution.Status.Description, "RuntimeError: ") ||
		spanAttrs(execution.Attributes)["spine.status"] != "error" {
		t.Fatalf("execution span %+v", execution)
	}
	if call.Status.Code != codes.Error || spanAttrs(call.Attributes)["spine.tool.status"] != "error" {
		t.Fatalf("tool span %+v", call)
	}
}

// metricPoints maps "name{attr=value,...}" to a sum's value or a
// histogram's count, or a gauge's value.
func metricPoints(t *testing.T, reader *sdkmetric.ManualReader) map[string]float64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	key := func(name string, set attribute.Set) string {
		var parts []string
		for _, kv := range set.ToSlice() {
			parts = append(parts, string(kv.Key)+"="+kv.Value.Emit())
		}
		return name + "{" + strings.Join(parts, ",") + "}"
	}
	for _, scope := range rm.ScopeMetrics {
		for _, m := range scope.Metrics {
			switch data := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range data.DataPoints {
					out[key(m.Name, p.Attributes)] = float64(p.Value)
				}
			case metricdata.Gauge[int64]:
				for _, p := range data.DataPoints {
					out[key(m.Name, p.Attributes)] = float64(p.Value)
				}
			case metricdata.Histogram[float64]:
				for _, p := range data.DataPoints {
					out[key(m.Name, p.Attributes)] = float64(p.Count)
				}
			}
		}
	}
	return out
}

// The metrics count executions by status and time them, time every tool
// call and every wait for a guest, and (sandbox) report the pool's children.
func TestTelemetryMetrics(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		reader := sdkmetric.NewManualReader()
		e := m.engine(t, host.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
		mustValue(t, e, "result = lookup(key=1) + lookup(key=2)", "", "21")
		if _, err := e.Execute(context.Background(), host.Request{Source: "fail(message='boom')"}); err == nil {
			t.Fatal("the failing program succeeded")
		}
		got := metricPoints(t, reader)
		want := map[string]float64{
			"spine.executions{spine.status=ok}":                                                        1,
			"spine.executions{spine.status=error}":                                                     1,
			"spine.execution.duration{spine.status=ok}":                                                1,
			"spine.execution.duration{spine.status=error}":                                             1,
			"spine.tool.duration{spine.tool.early=false,spine.tool.name=lookup,spine.tool.status=ok}":  2,
			"spine.tool.duration{spine.tool.early=false,spine.tool.name=fail,spine.tool.status=error}": 1,
			"spine.pool.wait{}": 2,
		}
		for name, value := range want {
			if got[name] != value {
				t.Errorf("%s = %v, want %v (all: %v)", name, got[name], value, got)
			}
		}
		_, hasPool := got["spine.pool.children{spine.pool.state=busy}"]
		_, hasWaiting := got["spine.pool.waiting{}"]
		beside, hasBeside := got["spine.pool.beside_start{}"]
		if sandboxed := m.level == host.Sandbox; hasPool != sandboxed || hasWaiting != sandboxed || hasBeside != sandboxed {
			t.Errorf("pool gauges reported %v/%v/%v in %s: %v", hasPool, hasWaiting, hasBeside, m.level, got)
		}
		if beside < 0 || beside > 2 {
			t.Errorf("%v of 2 executions ran beside a child's creation", beside)
		}
	})
}

// The compile time of each function compiled for an execution is recorded.
func TestTelemetryNativeCompileTime(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	e := nativeEngine(t, host.Inproc, t.TempDir(), host.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))))
	resp := execNative(t, e, host.NativeEager, fibProgram, `{"n": 10}`)
	if f := nativeEntry(t, resp, "fib"); f.Cache != "miss" || f.Status != "native" {
		t.Fatalf("fib was not compiled for this execution: %+v", f)
	}
	if got := metricPoints(t, reader)["spine.native.compile.duration{}"]; got != 1 {
		t.Fatalf("compile times recorded: %v, want 1", got)
	}
}

// records is a slog handler that keeps what it is given.
type records struct {
	mu   sync.Mutex
	list []slog.Record
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }
func (r *records) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	r.list = append(r.list, rec)
	r.mu.Unlock()
	return nil
}
func (r *records) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *records) WithGroup(string) slog.Handler      { return r }

func (r *records) find(level slog.Level, prefix string) *slog.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range r.list {
		if r.list[i].Level == level && strings.HasPrefix(r.list[i].Message, prefix) {
			return &r.list[i]
		}
	}
	return nil
}

func recordAttr(rec *slog.Record, key string) string {
	value := ""
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key == key {
			value = a.Value.String()
			return false
		}
		return true
	})
	return value
}

// The engine logs its own events: a call a hook denied, a tool abandoned
// past ToolGrace, and each execution's end.
func TestTelemetryLogsEngineEvents(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		logs := &records{}
		release := make(chan struct{})
		defer close(release)
		stuck := host.NewTool(host.ToolSpec{Name: "stuck"}, func(context.Context, json.RawMessage) (json.RawMessage, error) {
			<-release // ignores its context
			return nil, nil
		})
		deny := host.Hook{Before: func(_ context.Context, call host.CallInfo) error {
			if call.Tool == "echo" {
				return fmt.Errorf("no echoes")
			}
			return nil
		}}
		e := m.engine(t, host.WithTools(stuck), host.WithHooks(deny), host.WithLogger(slog.New(logs)),
			host.WithLimits(host.Limits{Timeout: 200 * time.Millisecond}))
		if resp, _ := e.Execute(context.Background(), host.Request{Source: "echo(x=1)"}); resp.Status != host.StatusError {
			t.Fatalf("status %s", resp.Status)
		}
		if rec := logs.find(slog.LevelInfo, "spine: tool call denied"); rec == nil || recordAttr(rec, "tool") != "echo" ||
			recordAttr(rec, "error") != "denied: no echoes" {
			t.Fatalf("no denial logged: %+v", logs.list)
		}
		if resp, _ := e.Execute(context.Background(), host.Request{Source: "stuck()"}); resp.Status != host.StatusTimeout {
			t.Fatalf("status %s", resp.Status)
		}
		if rec := logs.find(slog.LevelWarn, "spine: tool call abandoned"); rec == nil || recordAttr(rec, "tool") != "stuck" {
			t.Fatalf("no abandoned call logged: %+v", logs.list)
		}
		if rec := logs.find(slog.LevelDebug, "spine: execution ended"); rec == nil || recordAttr(rec, "status") != "error" {
			t.Fatalf("no execution end logged: %+v", logs.list)
		}
	})
}
