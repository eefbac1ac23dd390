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
	"strconv"
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
	table := flag.String("table", "", "recompute the section from the times of a saved section; the critical paths come from plain runs without latency (a plain run's calls do not depend on timing)")
	paths := flag.Bool("paths", false, "print each program's calls and what each depends on (plain, in process, no latency), to review the critical paths")
	rounds := flag.Int("rounds", 3, "rounds over the corpus; each time is the median of its rounds (one round's noise on a shared machine is several times the 5% a slowdown is judged by)")
	flag.Parse()
	programs, err := agenttools.LoadCorpus(*dir)
	if err != nil {
		fail(err)
	}
	pick := regexp.MustCompile(*only)
	if *table != "" {
		rows, date, err := readTable(*table)
		if err != nil {
			fail(err)
		}
		paths := criticalPaths(programs)
		for i := range rows {
			path, ok := paths[rows[i].name]
			if !ok {
				fail(fmt.Errorf("%s: not in the corpus", rows[i].name))
			}
			rows[i].calls, rows[i].path = path.calls, path.path
		}
		report(rows, *latencyFlag, date, 0)
		return
	}
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
	var picked []agenttools.Program
	for _, p := range programs {
		if pick.MatchString(p.Name) {
			picked = append(picked, p)
		}
	}
	if *rounds < 1 {
		fail(fmt.Errorf("-rounds must be at least 1"))
	}
	date := time.Now().UTC().Format("2006-01-02 15:04 UTC")
	samples := make([][]row, len(picked))
	for round := 0; round < *rounds; round++ {
		for i, p := range picked {
			samples[i] = append(samples[i], measure(engine, p, latency))
		}
	}
	rows := make([]row, len(picked))
	for i, runs := range samples {
		rows[i] = medianRow(runs)
	}
	report(rows, latency, date, *rounds)
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
	r.path = agenttools.CriticalPath(log, known(p))

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

// medianRow is one program's row over its rounds: each mode's median time,
// and an outcome counted as plain's only if it was in every round.
func medianRow(runs []row) row {
	r := runs[0]
	pick := func(of func(row) time.Duration) time.Duration {
		xs := make([]float64, len(runs))
		for i, run := range runs {
			xs[i] = float64(of(run))
		}
		return time.Duration(median(xs))
	}
	r.plain = pick(func(x row) time.Duration { return x.plain })
	r.plm = pick(func(x row) time.Duration { return x.plm })
	r.streamed = pick(func(x row) time.Duration { return x.streamed })
	for _, run := range runs {
		r.plmSame = r.plmSame && run.plmSame
		r.streamSame = r.streamSame && run.streamSame
	}
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
	if len(xs) == 0 {
		return 0
	}
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

// stats are one mode's figures over the programs it ran correctly.
type stats struct {
	shares, parallel []float64 // share of the ideal: all correct programs, those with parallelism
	slow, wrong      int       // programs slower than plain by more than 5%, outcomes unlike plain
	worstSlow        float64
}

func (s *stats) add(r row, latency, took time.Duration, same bool) {
	slowdown := float64(took)/float64(r.plain) - 1
	s.worstSlow = max(s.worstSlow, slowdown)
	if slowdown > 0.05 {
		s.slow++
	}
	if !same {
		s.wrong++ // a wrong answer is no speed-up: left out of the shares
		return
	}
	share := share(r.ideal(latency), took)
	s.shares = append(s.shares, share)
	if r.calls > r.path {
		s.parallel = append(s.parallel, share)
	}
}

func met(ok bool) string {
	if ok {
		return "met"
	}
	return "not met"
}

func report(rows []row, latency time.Duration, date string, rounds int) {
	if len(rows) == 0 {
		fail(fmt.Errorf("no program matched"))
	}
	fmt.Println("## Agent corpus: parallelism available and achieved")
	fmt.Println()
	fmt.Printf("- date: %s\n- machine: %s\n- command: `go run ./bench/agentbench` (part of `make bench`)\n", date, machine())
	if rounds > 0 {
		fmt.Printf("- rounds: %d over the whole corpus, modes interleaved per program; each time below is the median of its %d runs\n", rounds, rounds)
	}
	fmt.Println()
	fmt.Printf("Every program of `tests/agents` (%d here) runs plain, with PLM and streamed (%d-byte chunks fed back to back, timed from the first chunk to the result), "+
		"one execution at a time in the sandbox, every tool taking %v. "+
		"The ideal is the plain run's critical path (the longest chain of calls where each carries data from an earlier result or must follow it: "+
		"an effect follows every earlier call, a read follows earlier effects on what it reads by the tools' declared Reads and Writes; "+
		"`agenttools.CriticalPath` defines it) times %v. A mode's share of the ideal is its speed-up over plain divided by the ideal speed-up (= ideal time / mode time). "+
		"\"wrong\" marks an outcome that differs from plain (value, error, stdout, effects or consumed calls): such a run is left out of the shares "+
		"(a stale read is faster than the ideal and worth nothing).\n\n",
		len(rows), streamChunk, latency, latency)

	var plm, streamed stats
	parallel := 0
	for _, r := range rows {
		plm.add(r, latency, r.plm, r.plmSame)
		streamed.add(r, latency, r.streamed, r.streamSame)
		if r.calls > r.path {
			parallel++
		}
	}
	fmt.Println("| | PLM | streamed |")
	fmt.Println("| --- | ---: | ---: |")
	fmt.Printf("| programs whose outcome differs from plain (of %d) | %d | %d |\n", len(rows), plm.wrong, streamed.wrong)
	fmt.Printf("| share of the ideal speed-up, median (programs with plain's outcome) | %s | %s |\n", pct(median(plm.shares)), pct(median(streamed.shares)))
	fmt.Printf("| share, worst | %s | %s |\n", pct(minOf(plm.shares)), pct(minOf(streamed.shares)))
	fmt.Printf("| share, median (of those, the programs with parallelism: a critical path shorter than their calls; %d of %d in the corpus) | %s (%d) | %s (%d) |\n",
		parallel, len(rows), pct(median(plm.parallel)), len(plm.parallel), pct(median(streamed.parallel)), len(streamed.parallel))
	fmt.Printf("| share, worst (with parallelism) | %s | %s |\n", pct(minOf(plm.parallel)), pct(minOf(streamed.parallel)))
	fmt.Printf("| programs slower than plain by more than 5%% | %d (worst %+.1f%%) | %d (worst %+.1f%%) |\n", plm.slow, 100*plm.worstSlow, streamed.slow, 100*streamed.worstSlow)
	fmt.Println()
	fmt.Printf("Targets: median share at least 80%% of the ideal: PLM %s, streamed %s; over the programs with parallelism: PLM %s, streamed %s. "+
		"No program slower than plain by more than 5%%: PLM %s, streamed %s. Never an outcome unlike plain: PLM %s, streamed %s.\n\n",
		met(median(plm.shares) >= 0.8), met(median(streamed.shares) >= 0.8),
		met(median(plm.parallel) >= 0.8), met(median(streamed.parallel) >= 0.8),
		met(plm.slow == 0), met(streamed.slow == 0), met(plm.wrong == 0), met(streamed.wrong == 0))

	fmt.Println("| program | calls | critical path | plain | ideal | PLM | PLM share | streamed | streamed share |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, r := range rows {
		ideal := r.ideal(latency)
		fmt.Printf("| %s | %d | %d | %s | %s | %s%s | %s | %s%s | %s |\n", r.name, r.calls, r.path, ms(r.plain), ms(ideal),
			ms(r.plm), mark(r.plmSame), pct(share(ideal, r.plm)), ms(r.streamed), mark(r.streamSame), pct(share(ideal, r.streamed)))
	}
	fmt.Println()
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

// plainLog runs a program plain, in process, with tools that do not wait,
// and returns the world's log and what the program knew before any call.
func plainLog(engine *host.Engine, p agenttools.Program) ([]agenttools.Entry, string) {
	w := agenttools.NewWorld()
	engine.Execute(agenttools.WithWorld(context.Background(), w), host.Request{Source: p.Source, Inputs: p.Inputs})
	return w.Log(), known(p)
}

// known is what a program has before any call: its code (not the header,
// which spells out every call) and its inputs.
func known(p agenttools.Program) string {
	_, code := agenttools.SplitHeader(p.Source)
	return code + "\n" + string(p.Inputs)
}

func instantEngine() *host.Engine {
	engine, err := host.New(host.WithTools(agenttools.Tools(agenttools.Latency{})...), host.WithIsolation(host.Inproc))
	if err != nil {
		fail(err)
	}
	return engine
}

type pathOf struct{ calls, path int }

func criticalPaths(programs []agenttools.Program) map[string]pathOf {
	engine := instantEngine()
	defer engine.Close()
	out := map[string]pathOf{}
	for _, p := range programs {
		log, known := plainLog(engine, p)
		out[strings.TrimSuffix(p.Name, ".py")] = pathOf{len(log), agenttools.CriticalPath(log, known)}
	}
	return out
}

func printPaths(programs []agenttools.Program, pick *regexp.Regexp) {
	engine := instantEngine()
	defer engine.Close()
	for _, p := range programs {
		if !pick.MatchString(p.Name) {
			continue
		}
		log, known := plainLog(engine, p)
		fmt.Printf("%s: %d calls, critical path %d\n", p.Name, len(log), agenttools.CriticalPath(log, known))
		for j, deps := range agenttools.CriticalPathDeps(log, known) {
			fmt.Printf("  %d %s%s <- %v\n", j, log[j].Tool, log[j].Args, deps)
		}
	}
}

// readTable reads back the rows and date of a section this command wrote.
func readTable(path string) ([]row, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var rows []row
	date := ""
	duration := func(cell string) (time.Duration, bool, error) {
		wrong := strings.HasSuffix(cell, " (wrong)")
		n, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSuffix(cell, " (wrong)"), " ms"), 64)
		return time.Duration(n * float64(time.Millisecond)), !wrong, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if d, ok := strings.CutPrefix(line, "- date: "); ok {
			date = d
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if len(cells) != 9 {
			continue
		}
		calls, err1 := strconv.Atoi(cells[1])
		path, err2 := strconv.Atoi(cells[2])
		if err1 != nil || err2 != nil {
			continue // a header or a summary line
		}
		r := row{name: cells[0], calls: calls, path: path}
		var errs [3]error
		r.plain, _, errs[0] = duration(cells[3])
		r.plm, r.plmSame, errs[1] = duration(cells[5])
		r.streamed, r.streamSame, errs[2] = duration(cells[7])
		for _, err := range errs {
			if err != nil {
				return nil, "", fmt.Errorf("%s: %v", r.name, err)
			}
		}
		rows = append(rows, r)
	}
	return rows, date, nil
}
