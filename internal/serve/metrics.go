package serve

import (
	"bufio"
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// handleMetrics writes the engine's metrics in the Prometheus text format
// (version 0.0.4), collected from the engine's OpenTelemetry meter provider
// through a manual reader. Names follow the OpenTelemetry-to-Prometheus
// convention: dots become underscores, a unit in seconds adds "_seconds",
// a monotonic sum adds "_total", and attribute keys become label names the
// same way ("spine.status" -> spine_status).
func (s *Server) handleMetrics(w http.ResponseWriter, r *http.Request) {
	var collected metricdata.ResourceMetrics
	if err := s.metrics.Collect(r.Context(), &collected); err != nil {
		writeError(w, http.StatusInternalServerError, "collecting the metrics: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	out := bufio.NewWriter(w)
	defer out.Flush()
	for _, scope := range collected.ScopeMetrics {
		for _, m := range scope.Metrics {
			writeMetric(out, m)
		}
	}
}

func writeMetric(out *bufio.Writer, m metricdata.Metrics) {
	name := promName(m.Name)
	if m.Unit == "s" {
		name += "_seconds"
	}
	switch data := m.Data.(type) {
	case metricdata.Sum[int64]:
		writeNumbers(out, name, m.Description, data.IsMonotonic, data.DataPoints)
	case metricdata.Sum[float64]:
		writeNumbers(out, name, m.Description, data.IsMonotonic, data.DataPoints)
	case metricdata.Gauge[int64]:
		writeNumbers(out, name, m.Description, false, data.DataPoints)
	case metricdata.Gauge[float64]:
		writeNumbers(out, name, m.Description, false, data.DataPoints)
	case metricdata.Histogram[float64]:
		writeHistogram(out, name, m.Description, data.DataPoints)
	case metricdata.Histogram[int64]:
		writeHistogram(out, name, m.Description, data.DataPoints)
	}
}

func writeNumbers[N int64 | float64](out *bufio.Writer, name, help string, counter bool, points []metricdata.DataPoint[N]) {
	kind := "gauge"
	if counter {
		name, kind = name+"_total", "counter"
	}
	writeHeader(out, name, help, kind)
	for _, p := range points {
		fmt.Fprintf(out, "%s%s %s\n", name, labels(p.Attributes, ""), number(float64(p.Value)))
	}
}

func writeHistogram[N int64 | float64](out *bufio.Writer, name, help string, points []metricdata.HistogramDataPoint[N]) {
	writeHeader(out, name, help, "histogram")
	for _, p := range points {
		var cumulative uint64
		for i, bound := range p.Bounds {
			cumulative += p.BucketCounts[i]
			fmt.Fprintf(out, "%s_bucket%s %d\n", name, labels(p.Attributes, number(bound)), cumulative)
		}
		fmt.Fprintf(out, "%s_bucket%s %d\n", name, labels(p.Attributes, "+Inf"), p.Count)
		fmt.Fprintf(out, "%s_sum%s %s\n", name, labels(p.Attributes, ""), number(float64(p.Sum)))
		fmt.Fprintf(out, "%s_count%s %d\n", name, labels(p.Attributes, ""), p.Count)
	}
}

func writeHeader(out *bufio.Writer, name, help, kind string) {
	if help != "" {
		fmt.Fprintf(out, "# HELP %s %s\n", name, strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(help))
	}
	fmt.Fprintf(out, "# TYPE %s %s\n", name, kind)
}

// labels renders a point's attributes, sorted, with le (a bucket's upper
// bound) last when given.
func labels(set attribute.Set, le string) string {
	var parts []string
	for _, kv := range set.ToSlice() {
		parts = append(parts, promName(string(kv.Key))+`="`+escapeLabel(kv.Value.Emit())+`"`)
	}
	sort.Strings(parts)
	if le != "" {
		parts = append(parts, `le="`+le+`"`)
	}
	if len(parts) == 0 {
		return ""
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// promName maps an OpenTelemetry name onto [a-zA-Z_:][a-zA-Z0-9_:]*.
func promName(name string) string {
	var b strings.Builder
	for i, c := range name {
		ok := c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
		if ok {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func escapeLabel(value string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(value)
}

func number(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
