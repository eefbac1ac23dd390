// Command soak runs many submitters against one sandboxed engine for minutes,
// a share of them hostile (one class per attack the host must withstand),
// while children are killed at random from outside, and checks what a
// service needs of the engine under that load:
//
//   - nothing lost: every submission returns, exactly once, with the status
//     its class must end with (benign runs ok with the right value; crashed
//     only when a kill explains it);
//   - nothing duplicated: each run's `emit` effects, counted in the tool
//     itself, are exactly those of the plain program (zero under a dead
//     context);
//   - the host's RSS stays under a bound (sampled every second);
//   - descriptors, goroutines and sandboxed children come back to the
//     baseline afterwards.
//
// It prints a markdown section for bench/RESULTS.md and exits 1 when an
// invariant fails. `make bench` runs it with the defaults (64 submitters,
// 5 minutes); use `-duration 20s -submitters 16` for a short run.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spine-sandbox/spine/host"
)

type harness struct {
	engine *host.Engine
	ledger *ledger
	// root is every submission's parent context: cancelled when the host's
	// RSS passes the abort level, so that a leak being proven cannot take the
	// machine with it.
	root context.Context
}

type settings struct {
	duration   time.Duration
	submitters int
	hostile    float64
	killEvery  time.Duration
	killYoung  time.Duration
	overrun    time.Duration
	maxRSSMiB  int64
	abortMiB   int64
	settle     time.Duration
	drain      time.Duration
	seed       int64
	classes    []*class
	command    string
}

func parseFlags() settings {
	var s settings
	flag.DurationVar(&s.duration, "duration", 5*time.Minute, "how long to submit")
	flag.IntVar(&s.submitters, "submitters", 64, "goroutines submitting, each one submission at a time")
	flag.Float64Var(&s.hostile, "hostile", 0.2, "share of hostile submissions")
	flag.DurationVar(&s.killEvery, "kill-every", time.Second, "mean interval between random SIGKILLs of sandboxed children (0: none)")
	flag.DurationVar(&s.killYoung, "kill-younger", 3*time.Second, "only children younger than this are killed (long hostile runs then reach their own end)")
	flag.DurationVar(&s.overrun, "overrun", 3*time.Second, "how far past its deadline a run with a deadline may return")
	flag.Int64Var(&s.maxRSSMiB, "max-rss-mib", 1024, "bound on the host's RSS (the invariant)")
	flag.Int64Var(&s.abortMiB, "abort-rss-mib", 3072, "past this RSS the run stops and cancels what runs (it protects the machine)")
	flag.DurationVar(&s.settle, "settle", 90*time.Second, "how long resources may take to come back to the baseline")
	flag.DurationVar(&s.drain, "drain", 2*time.Minute, "how long to wait for submissions in flight at the end before calling them lost")
	flag.Int64Var(&s.seed, "seed", 0, "random seed (0: from the clock)")
	only := flag.String("classes", "all", "comma-separated classes to submit (development; the soak is all of them)")
	flag.Parse()
	if s.seed == 0 {
		s.seed = time.Now().UnixNano()
	}
	var err error
	if s.classes, err = classByName(*only); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(2)
	}
	s.command = "go run ./bench/soak"
	if len(os.Args) > 1 {
		s.command += " " + strings.Join(os.Args[1:], " ")
	}
	return s
}

func main() {
	s := parseFlags()
	if err := loadSuite(classes); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(2)
	}
	l := newLedger()
	// The default sandbox and limits, but for the engine's timeout: it must
	// not cut short the longest deadline a class is given.
	engine, err := host.New(host.WithTools(l.tools()...), host.WithLimits(host.Limits{Timeout: longestDeadline(classes)}))
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	root, abandon := context.WithCancel(context.Background())
	defer abandon()
	h := &harness{engine: engine, ledger: l, root: root}
	var stopping atomic.Bool
	rss := startSampler(s.maxRSSMiB<<10, s.abortMiB<<10, func() {
		stopping.Store(true)
		abandon()
		fmt.Fprintln(os.Stderr, "soak: the host's RSS passed the abort level: stopping, cancelling what runs")
	})
	// The warm-up: the baseline is taken with the engine's caches and
	// goroutines in their steady state.
	if wrong := benignOnce(h); wrong != "" {
		fmt.Fprintln(os.Stderr, "soak: warm-up:", wrong)
		os.Exit(1)
	}
	l.forgetEffects()
	base := steady(10 * time.Second)
	baseRSS := rss.sample()
	fmt.Fprintf(os.Stderr, "soak: baseline %+v, RSS %d MiB; %d submitters for %s, seed %d\n",
		base, baseRSS>>10, s.submitters, s.duration, s.seed)

	var kills *killer
	if s.killEvery > 0 {
		kills = startKiller(s.killEvery, s.killYoung, s.seed)
	}
	start := time.Now()
	done := submit(h, s, &stopping)
	go progress(l, rss, start, done)
	lost := !waitFor(done, s.duration+s.drain)
	ran := time.Since(start)
	var killTimes []kill
	if kills != nil {
		killTimes = kills.halt()
	}
	records, open, emits, unread := l.snapshot()
	// Afterwards the engine must still serve, at once (not after the lost
	// executions' deadlines), even when the run was abandoned.
	stillServes := benignOnce(&harness{engine: engine, ledger: l, root: context.Background()})
	end, settled, back := settle(base, s.settle)
	debug.FreeOSMemory()
	endRSS := rss.sample()
	rss.halt()

	v := judgeAll(records, open, emits, unread, killTimes, s.overrun)
	report(reportData{s: s, v: v, started: start, ran: ran, base: base, end: end, settled: settled, back: back,
		baseRSS: baseRSS, peakRSS: rss.peak.Load(), endRSS: endRSS, overAt: rss.overAt.Load(), abortAt: rss.trips.Load(), isolation: engine.Isolation(),
		stillServes: stillServes})
	if lost {
		// Close would wait for the executions that never returned.
		os.Exit(1)
	}
	engine.Close()
	if v.failed() || !back || rss.overAt.Load() != 0 || stillServes != "" || !seesSandbox(base, s.killEvery, v.kills) {
		os.Exit(1)
	}
}

// longestDeadline is the longest deadline of the classes, at least the
// engine's default timeout.
func longestDeadline(all []*class) time.Duration {
	longest := host.DefaultLimits.Timeout
	for _, c := range all {
		longest = max(longest, c.deadline)
	}
	return longest
}

// benignOnce runs each benign class once and says what went wrong ("" : all
// ok with the right value). Its effects are not counted.
func benignOnce(h *harness) string {
	var wrong []string
	for _, c := range classes {
		if c.hostile {
			continue
		}
		if o := c.submit(h, 0); o.status != host.StatusOK || o.value != c.value(0) {
			wrong = append(wrong, fmt.Sprintf("%s: status %s, value %s %s", c.name, o.status, o.value, o.problem))
		}
	}
	return strings.Join(wrong, "; ")
}

// submit runs one submission of class c, under the class's deadline.
func (c *class) submit(h *harness, id int64) outcome {
	ctx, cancel := context.WithCancel(h.root)
	defer cancel()
	if c.deadline > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, c.deadline)
		defer stop()
	}
	return c.run(h, ctx, id)
}

// submit starts the submitters; the channel closes when all have returned.
func submit(h *harness, s settings, stopping *atomic.Bool) chan struct{} {
	var benign, hostile []*class
	for _, c := range s.classes {
		if c.hostile {
			hostile = append(hostile, c)
		} else {
			benign = append(benign, c)
		}
	}
	var ids atomic.Int64
	var wg sync.WaitGroup
	deadline := time.Now().Add(s.duration)
	for i := range s.submitters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewSource(s.seed + int64(i) + 1))
			for time.Now().Before(deadline) && !stopping.Load() {
				pool := benign
				if len(pool) == 0 || (len(hostile) > 0 && rng.Float64() < s.hostile) {
					pool = hostile
				}
				c := pool[rng.Intn(len(pool))]
				id := ids.Add(1)
				h.ledger.begin(id, c)
				h.ledger.end(id, c.submit(h, id))
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
}

// progress reports on stderr every 10 s until done closes.
func progress(l *ledger, rss *sampler, start time.Time, done chan struct{}) {
	tick := time.NewTicker(10 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			records, open, _, _ := l.snapshot()
			fmt.Fprintf(os.Stderr, "soak: %s: %d done, %d in flight, RSS %d MiB, %d children\n",
				time.Since(start).Round(time.Second), len(records), len(open), rss.last.Load()>>10, len(sandboxChildren()))
		}
	}
}

func waitFor(done chan struct{}, limit time.Duration) bool {
	select {
	case <-done:
		return true
	case <-time.After(limit):
		return false
	}
}
