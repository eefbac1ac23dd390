// Command agentbench measures how much of the parallelism available in the
// agent corpus (tests/agents) PLM and prefix streaming achieve. Each program
// runs plain, with PLM and streamed, with every tool taking the same
// latency (100 ms by default), in the default isolation (sandbox), one
// execution at a time. The ideal is the critical path of the plain run
// (agenttools.CriticalPath: calls that carry data from an earlier result,
// effects in order) times the latency; a mode's share of the ideal is
// (plain / mode) / (plain / ideal) = ideal / mode. It prints a markdown
// section for bench/RESULTS.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/agenttools"
)

// streamChunk is the size of the chunks a streamed program arrives in, back
// to back: streaming is then measured as a way to run a whole program, on
// the same footing as plain and PLM (no model pacing to hide calls behind).
const streamChunk = 64

type row struct {
	name                 string
	calls, path          int
	plain, plm, streamed time.Duration
	plmSame, streamSame  bool
}

func (r row) ideal(latency time.Duration) time.Duration { return time.Duration(r.path) * latency }

func main() {
	dir := flag.String("corpus", "tests/agents", "the agent corpus")
	only := flag.String("only", "", "run only the programs whose name matches this regular expression")
	latencyFlag := flag.Duration("latency", 100*time.Millisecond, "every tool's latency")
	paths := flag.Bool("paths", false, "print each program's calls and what each depends on (plain, in process, no latency), to review the critical paths")
	flag.Parse()
	programs, err := agenttools.LoadCorpus(*dir)
	if err != nil {
		fail(err)
	}
	pick := regexp.MustCompile(*only)
	if *paths {
		printPaths(programs, pick)
		return
	}
	latency := *latencyFlag
	engine, err := host.New(host.WithTools(agenttools.Tools(agenttools.Latency{Default: latency})...), host.WithWorkers(64))
	if err != nil {
		fail(err)
	}
	defer engine.Close()
	var rows []row
	for _, p := range programs {
		if !pick.MatchString(p.Name) {
			continue
		}
		rows = append(rows, measure(engine, p, latency))
	}
	report(rows, latency)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "agentbench:", err)
	os.Exit(1)
}

func measure(e *host.Engine, p agenttools.Program, latency time.Duration) row {
	r := row{name: strings.TrimSuffix(p.Name, ".py")}
	w := agenttools.NewWorld()
	start := time.Now()
	resp, _ := e.Execute(agenttools.WithWorld(context.Background(), w), host.Request{Source: p.Source, Inputs: p.Inputs})
	r.plain = time.Since(start)
	base := agenttools.Observe(resp, w).String()
	log := w.Log()
	r.calls = len(log)
	// What the program knows before any call: its code (not the header,
	// which spells out every call) and its inputs.
	_, code := agenttools.SplitHeader(p.Source)
	r.path = agenttools.CriticalPath(log, code+"\n"+string(p.Inputs))

	w = agenttools.NewWorld()
	start = time.Now()
	resp, _ = e.Execute(agenttools.WithWorld(context.Background(), w), host.Request{Source: p.Source, Inputs: p.Inputs, PLM: true})
	r.plm = time.Since(start)
	r.plmSame = agenttools.Observe(resp, w).String() == base

	w = agenttools.NewWorld()
	start = time.Now()
	s, err := e.Stream(agenttools.WithWorld(context.Background(), w), host.Request{Inputs: p.Inputs})
	if err != nil {
		fail(err)
	}
	for src := []byte(p.Source); len(src) > 0; {
		n := min(streamChunk, len(src))
		if err := s.Feed(src[:n]); err != nil {
			fail(err)
		}
		src = src[n:]
	}
	resp, _ = s.Finish()
	r.streamed = time.Since(start)
	r.streamSame = agenttools.Observe(resp, w).String() == base
	return r
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// share is the fraction of the ideal speed-up a mode achieved.
func share(ideal, got time.Duration) float64 { return float64(ideal) / float64(got) }

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func mark(same bool) string {
	if same {
		return ""
	}
	return " (wrong)"
}

func report(rows []row, latency time.Duration) {
	if len(rows) == 0 {
		fail(fmt.Errorf("no program matched"))
	}
	fmt.Println("## Agent corpus: parallelism available and achieved")
	fmt.Println()
	fmt.Printf("- date: %s\n- machine: %s\n- command: `go run ./bench/agentbench` (part of `make bench`)\n\n", time.Now().UTC().Format("2006-01-02 15:04 UTC"), machine())
	fmt.Printf("Every program of `tests/agents` (%d here) runs plain, with PLM and streamed (%d-byte chunks fed back to back, timed from the first chunk to the result), "+
		"one execution at a time in the sandbox, every tool taking %v. "+
		"The ideal is the plain run's critical path (the longest chain of calls where each carries data from an earlier result, effects in order; "+
		"`agenttools.CriticalPath` defines it) times %v. A mode's share of the ideal is its speed-up over plain divided by the ideal speed-up (= ideal time / mode time). "+
		"\"wrong\" marks an outcome that differs from plain (value, error, stdout, effects or consumed calls).\n\n",
		len(rows), streamChunk, latency, latency)

	var plmShare, streamShare, plmPar, streamPar []float64
	plmSlow, streamSlow, plmWrong, streamWrong, parallel := 0, 0, 0, 0, 0
	worstPLM, worstStream := 0.0, 0.0
	for _, r := range rows {
		ideal := r.ideal(latency)
		ps, ss := share(ideal, r.plm), share(ideal, r.streamed)
		plmShare, streamShare = append(plmShare, ps), append(streamShare, ss)
		if r.calls > r.path {
			parallel++
			plmPar, streamPar = append(plmPar, ps), append(streamPar, ss)
		}
		slowP := float64(r.plm)/float64(r.plain) - 1
		slowS := float64(r.streamed)/float64(r.plain) - 1
		worstPLM, worstStream = max(worstPLM, slowP), max(worstStream, slowS)
		if slowP > 0.05 {
			plmSlow++
		}
		if slowS > 0.05 {
			streamSlow++
		}
		if !r.plmSame {
			plmWrong++
		}
		if !r.streamSame {
			streamWrong++
		}
	}
	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "not met"
	}
	fmt.Println("| | PLM | streamed |")
	fmt.Println("| --- | ---: | ---: |")
	fmt.Printf("| share of the ideal speed-up, median (all %d programs) | %s | %s |\n", len(rows), pct(median(plmShare)), pct(median(streamShare)))
	fmt.Printf("| share of the ideal speed-up, worst (all) | %s | %s |\n", pct(minOf(plmShare)), pct(minOf(streamShare)))
	if parallel > 0 {
		fmt.Printf("| share, median (the %d programs with parallelism: fewer steps on the critical path than calls) | %s | %s |\n", parallel, pct(median(plmPar)), pct(median(streamPar)))
		fmt.Printf("| share, worst (those %d) | %s | %s |\n", parallel, pct(minOf(plmPar)), pct(minOf(streamPar)))
	}
	fmt.Printf("| programs slower than plain by more than 5%% | %d (worst %+.1f%%) | %d (worst %+.1f%%) |\n", plmSlow, 100*worstPLM, streamSlow, 100*worstStream)
	fmt.Printf("| programs whose outcome differs from plain | %d | %d |\n", plmWrong, streamWrong)
	fmt.Println()
	fmt.Printf("Targets: median share at least 80%% of the ideal: PLM %s, streamed %s (over the programs with parallelism: PLM %s, streamed %s); "+
		"no program slower than plain by more than 5%%: PLM %s, streamed %s.\n\n",
		met(median(plmShare) >= 0.8), met(median(streamShare) >= 0.8),
		met(parallel == 0 || median(plmPar) >= 0.8), met(parallel == 0 || median(streamPar) >= 0.8),
		met(plmSlow == 0), met(streamSlow == 0))

	fmt.Println("| program | calls | critical path | plain | ideal | PLM | PLM share | streamed | streamed share |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range rows {
		ideal := r.ideal(latency)
		fmt.Printf("| %s | %d | %d | %s | %s | %s%s | %s | %s%s | %s |\n", r.name, r.calls, r.path, ms(r.plain), ms(ideal),
			ms(r.plm), mark(r.plmSame), pct(share(ideal, r.plm)), ms(r.streamed), mark(r.streamSame), pct(share(ideal, r.streamed)))
	}
	fmt.Println()
}

func printPaths(programs []agenttools.Program, pick *regexp.Regexp) {
	engine, err := host.New(host.WithTools(agenttools.Tools(agenttools.Latency{})...), host.WithIsolation(host.Inproc))
	if err != nil {
		fail(err)
	}
	defer engine.Close()
	for _, p := range programs {
		if !pick.MatchString(p.Name) {
			continue
		}
		w := agenttools.NewWorld()
		engine.Execute(agenttools.WithWorld(context.Background(), w), host.Request{Source: p.Source, Inputs: p.Inputs})
		_, code := agenttools.SplitHeader(p.Source)
		known := code + "\n" + string(p.Inputs)
		log := w.Log()
		fmt.Printf("%s: %d calls, critical path %d\n", p.Name, len(log), agenttools.CriticalPath(log, known))
		for j, deps := range agenttools.CriticalPathDeps(log, known) {
			fmt.Printf("  %d %s%s <- %v\n", j, log[j].Tool, log[j].Args, deps)
		}
	}
}

// machine names the CPU model and the number of CPUs.
func machine() string {
	model := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d cores", model, runtime.NumCPU())
}
