// Command aiobench measures real Python in the sandbox and prints a
// markdown section for bench/RESULTS.md:
//
//   - 8 independent 100 ms tool calls written with asyncio.gather, against
//     the same calls written one after another, with and without PLM;
//   - 8 threads of a ThreadPoolExecutor each calling a 200 ms tool;
//   - the sandbox's per-execution latency (the trivial program of
//     enginebench, one execution every 5 ms, warm pool), and, with -peer,
//     beside the same measurement by another build of this command (an
//     older commit: baseline.sh builds one), in interleaved rounds.
//
// Everything goes through the public API (host) in the default sandbox.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

const (
	trivial      = "result = {'x': lookup(key=inputs['item'])}"
	warmInterval = 5 * time.Millisecond
)

var gather = `import asyncio
result = await asyncio.gather(*[sleep(ms=100, value=i) for i in range(8)])`

var sequential = func() string {
	var b strings.Builder
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "v%d = sleep(ms=100, value=%d)\n", i, i)
	}
	b.WriteString("result = [v0, v1, v2, v3, v4, v5, v6, v7]\n")
	return b.String()
}()

var threads = `from concurrent.futures import ThreadPoolExecutor
with ThreadPoolExecutor(max_workers=8) as pool:
    result = list(pool.map(lambda i: sleep(ms=200, value=i), range(8)))`

func main() {
	only := flag.String("only", "", "latency: print one round of latency samples (µs, JSON) and exit (what -peer runs)")
	perRound := flag.Int("per-round", 250, "executions per latency round")
	rounds := flag.Int("rounds", 8, "latency rounds")
	runs := flag.Int("runs", 15, "runs of each tool-call program")
	peer := flag.String("peer", "", "another build of aiobench (an older commit) to measure latency beside")
	peerGuest := flag.String("peer-guest", "", "the spine-guest the peer runs with ($SPINE_GUEST for it)")
	peerName := flag.String("peer-name", "baseline", "what the peer is, for the table")
	flag.Parse()
	engine, err := host.New(host.WithTools(demotools.Tools()...))
	if err != nil {
		fmt.Fprintln(os.Stderr, "aiobench:", err)
		os.Exit(1)
	}
	defer engine.Close()
	if *only == "latency" {
		latency(engine, 50) // its own pool warm first, as below
		json.NewEncoder(os.Stdout).Encode(micros(latency(engine, *perRound)))
		return
	}
	fmt.Println("## Real Python in the sandbox: async gather, threads, per-execution latency")
	fmt.Println()
	toolCalls(engine, *runs)
	latencySection(engine, *rounds, *perRound, *peer, *peerGuest, *peerName)
}

func run(e *host.Engine, req host.Request) (time.Duration, *host.Response) {
	start := time.Now()
	resp, err := e.Execute(context.Background(), req)
	elapsed := time.Since(start)
	if err != nil {
		fmt.Fprintf(os.Stderr, "aiobench: %v\n%s\n", err, req.Source)
		os.Exit(1)
	}
	return elapsed, resp
}

// toolCalls runs each program `runs` times, interleaved, and reports the
// medians and the calls' overlap in the last run's trace.
func toolCalls(e *host.Engine, runs int) {
	type program struct {
		label string
		req   host.Request
		want  string
		times []time.Duration
		last  *host.Response
	}
	programs := []*program{
		{label: "`await asyncio.gather(*[sleep(ms=100) ...])`, 8 calls", req: host.Request{Source: gather}, want: "[0, 1, 2, 3, 4, 5, 6, 7]"},
		{label: "8 sequential `sleep(ms=100)` statements, PLM off", req: host.Request{Source: sequential}, want: "[0, 1, 2, 3, 4, 5, 6, 7]"},
		{label: "8 sequential `sleep(ms=100)` statements, PLM on", req: host.Request{Source: sequential, PLM: true}, want: "[0, 1, 2, 3, 4, 5, 6, 7]"},
		{label: "ThreadPoolExecutor(8), each thread `sleep(ms=200)`", req: host.Request{Source: threads}, want: "[0, 1, 2, 3, 4, 5, 6, 7]"},
	}
	for r := 0; r < runs; r++ {
		for _, p := range programs {
			d, resp := run(e, p.req)
			if string(resp.Value) != p.want {
				fmt.Fprintf(os.Stderr, "aiobench: %s gave %s\n", p.label, resp.Value)
				os.Exit(1)
			}
			p.times = append(p.times, d)
			p.last = resp
		}
	}
	fmt.Printf("Tool calls in the sandbox (the demo tool `sleep`), median of %d runs each, interleaved; "+
		"\"overlap\" is the most calls running at once in the trace of the last run.\n\n", runs)
	fmt.Println("| program | median | min | overlap | ideal |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: |")
	ideal := []string{"100 ms", "800 ms", "100 ms", "200 ms"}
	for i, p := range programs {
		s := summarize(p.times)
		fmt.Printf("| %s | %s | %s | %d | %s |\n", p.label, ms(s.median), ms(s.min), overlap(p.last.Calls), ideal[i])
	}
	g, off := summarize(programs[0].times).median, summarize(programs[1].times).median
	on, th := summarize(programs[2].times).median, summarize(programs[3].times).median
	fmt.Println()
	fmt.Printf("gather against sequential without PLM: %.1fx faster; against PLM: %.2fx of its time. "+
		"Target gather within 115 ms: %s. Threads: %s for 8 x 200 ms (%.1fx faster than one after another).\n\n",
		float64(off)/float64(g), float64(g)/float64(on), met(g <= 115*time.Millisecond), ms(th), float64(1600*time.Millisecond)/float64(th))
}

// overlap is the most calls of the trace running at one moment.
func overlap(calls []host.Call) int {
	most := 0
	for _, c := range calls {
		n := 0
		for _, o := range calls {
			if o.Start <= c.Start && c.Start < o.End {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// latency runs the trivial program n times, one every warmInterval.
func latency(e *host.Engine, n int) []time.Duration {
	req := host.Request{Source: trivial, Inputs: json.RawMessage(`{"item": 3}`)}
	out := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		d, resp := run(e, req)
		if string(resp.Value) != `{"x": 21}` {
			fmt.Fprintf(os.Stderr, "aiobench: trivial gave %s\n", resp.Value)
			os.Exit(1)
		}
		out = append(out, d)
		time.Sleep(warmInterval)
	}
	return out
}

func latencySection(e *host.Engine, rounds, perRound int, peer, peerGuest, peerName string) {
	var own, other []time.Duration
	if peer == "" {
		latency(e, 50) // the pool warm, the code paths hot
		for r := 0; r < rounds; r++ {
			own = append(own, latency(e, perRound)...)
		}
	} else {
		// Both builds alike: each round in a process of its own (its own
		// engine and zygote, warmed first), taking turns.
		self, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, "aiobench:", err)
			os.Exit(1)
		}
		for r := 0; r < rounds; r++ {
			own = append(own, peerRound(self, os.Getenv("SPINE_GUEST"), perRound)...)
			other = append(other, peerRound(peer, peerGuest, perRound)...)
		}
	}
	fmt.Printf("Per-execution latency in the sandbox: `%s`, one execution every %v, warm pool, %d rounds of %d",
		trivial, warmInterval, rounds, perRound)
	if peer != "" {
		fmt.Printf(", interleaved round by round with %s, each round of either build in a fresh process (engine and zygote) warmed by 50 executions", peerName)
	}
	fmt.Print(".\n\n| build | median | p90 | p99 |\n| --- | ---: | ---: | ---: |\n")
	s := summarize(own)
	fmt.Printf("| this build | %s | %s | %s |\n", us(s.median), us(s.p90), us(s.p99))
	if peer != "" {
		b := summarize(other)
		fmt.Printf("| %s | %s | %s | %s |\n", peerName, us(b.median), us(b.p90), us(b.p99))
		change := float64(s.median)/float64(b.median) - 1
		fmt.Printf("\nMedian against %s: %+.1f%% (target: at most +10%%: %s).\n", peerName, 100*change, met(change <= 0.10))
	}
	fmt.Println()
}

// peerRound has the peer build measure one round in its own process.
func peerRound(peer, guest string, n int) []time.Duration {
	cmd := exec.Command(peer, "-only", "latency", "-per-round", fmt.Sprint(n))
	cmd.Env = os.Environ()
	if guest != "" {
		cmd.Env = append(cmd.Env, "SPINE_GUEST="+guest)
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	var samples []float64
	if err == nil {
		err = json.Unmarshal(out, &samples)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "aiobench: peer:", err)
		os.Exit(1)
	}
	d := make([]time.Duration, len(samples))
	for i, s := range samples {
		d[i] = time.Duration(s * float64(time.Microsecond))
	}
	return d
}

type stats struct{ min, median, p90, p99 time.Duration }

func summarize(d []time.Duration) stats {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return stats{min: s[0], median: at(0.5), p90: at(0.9), p99: at(0.99)}
}

func micros(d []time.Duration) []float64 {
	out := make([]float64, len(d))
	for i, x := range d {
		out[i] = float64(x) / float64(time.Microsecond)
	}
	return out
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
func us(d time.Duration) string { return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond)) }

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "not met"
}
