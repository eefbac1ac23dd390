// Command mcpbench measures tool calls through an MCP stdio server (the
// upstream of the tests, built with the official Go SDK) against the same
// tools as direct Go functions, in the default sandbox, and prints a
// markdown section for bench/RESULTS.md:
//
//   - the cost of one tool call: a program of 100 sequential calls less a
//     program of 1, per call;
//
//   - an 8-call fan-out of a 50 ms read-only tool, PLM off and on, through
//     MCP and direct.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/mcp/mcptest"
)

type addArgs struct {
	A int `json:"a"`
	B int `json:"b"`
}

type slowArgs struct {
	Key int `json:"key"`
	MS  int `json:"ms"`
}

// directTools are the upstream's add and slow as Go functions.
func directTools() []host.Tool {
	return []host.Tool{
		host.Func("add", func(ctx context.Context, a addArgs) (map[string]int, error) {
			return map[string]int{"sum": a.A + a.B}, nil
		}, host.Speculative()),
		host.Func("slow", func(ctx context.Context, a slowArgs) (int, error) {
			select {
			case <-time.After(time.Duration(a.MS) * time.Millisecond):
			case <-ctx.Done():
				return 0, ctx.Err()
			}
			return 2 * a.Key, nil
		}, host.Speculative()),
	}
}

const (
	oneCall     = "result = add(a=1, b=2)"
	hundredCall = "result = sum(add(a=i, b=1)['sum'] for i in range(100))"
	fanOut      = "result = [slow(key=k, ms=50) for k in range(8)]"
)

func main() {
	quick := flag.Bool("quick", false, "fewer iterations (smoke run)")
	flag.Parse()
	n, fanN := 200, 20
	if *quick {
		n, fanN = 20, 4
	}
	loadAverage = readLoadAverage()
	upstream, err := mcptest.Build()
	if err != nil {
		log.Fatal(err)
	}
	direct := engine(host.WithTools(directTools()...))
	defer direct.Close()
	viaMCP := engine(host.WithMCP(mcptest.StdioConfigOf(upstream, "up")))
	defer viaMCP.Close()

	type row struct {
		name         string
		one, hundred time.Duration
	}
	rows := []row{
		{"direct Go tool", median(direct, oneCall, false, n), median(direct, hundredCall, false, n/4)},
		{"MCP stdio server", median(viaMCP, oneCall, false, n), median(viaMCP, hundredCall, false, n/4)},
	}
	perCall := func(r row) time.Duration { return (r.hundred - r.one) / 99 }

	fmt.Println("## MCP: tool calls through an MCP stdio server, same run")
	fmt.Println()
	fmt.Println("`go run ./bench/mcpbench` (in `make bench`). The upstream is `internal/mcp/testdata/upstream`, an MCP server on the")
	fmt.Println("official Go SDK over stdio, one process for the engine; the direct tools are the same functions in Go.")
	fmt.Println("Default sandbox, one execution at a time; medians.")
	fmt.Printf("Run %s on %d CPUs, load average %s at the start.\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU(), loadAverage)
	fmt.Println()
	fmt.Printf("Cost of one call (100 sequential calls less 1, per call; %d and %d runs):\n\n", n, n/4)
	fmt.Println("| tools | 1-call program | 100-call program | per call |")
	fmt.Println("| --- | ---: | ---: | ---: |")
	for _, r := range rows {
		fmt.Printf("| %s | %s | %s | %s |\n", r.name, ms(r.one), ms(r.hundred), us(perCall(r)))
	}
	fmt.Printf("\nA call through MCP costs %s more than a direct one (%.1fx).\n\n",
		us(perCall(rows[1])-perCall(rows[0])), float64(perCall(rows[1]))/float64(perCall(rows[0])))

	fmt.Printf("8-call fan-out of a 50 ms read-only tool (`%s`, %d runs):\n\n", fanOut, fanN)
	fmt.Println("| tools | PLM off | PLM on | speed-up |")
	fmt.Println("| --- | ---: | ---: | ---: |")
	for _, e := range []struct {
		name   string
		engine *host.Engine
	}{{"direct Go tool", direct}, {"MCP stdio server", viaMCP}} {
		off, on := median(e.engine, fanOut, false, fanN), median(e.engine, fanOut, true, fanN)
		fmt.Printf("| %s | %s | %s | %.1fx |\n", e.name, ms(off), ms(on), float64(off)/float64(on))
	}
	fmt.Println()
}

func engine(opts ...host.Option) *host.Engine {
	e, err := host.New(append(opts, host.WithWorkers(64))...)
	if err != nil {
		log.Fatal(err)
	}
	return e
}

// median runs source n times (after a warm-up) and returns the median
// wall-clock time of Execute.
func median(e *host.Engine, source string, plm bool, n int) time.Duration {
	var times []time.Duration
	for i := -2; i < n; i++ {
		start := time.Now()
		resp, err := e.Execute(context.Background(), host.Request{Source: source, PLM: plm})
		if err != nil {
			log.Fatalf("%s: %v (%s)", source, err, resp.Error)
		}
		if i >= 0 {
			times = append(times, time.Since(start))
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2]
}

var loadAverage string

// readLoadAverage is the 1-minute load average: the machine is shared, and
// a busy one stretches every figure here.
func readLoadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(data))[0]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }
func us(d time.Duration) string { return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond)) }
