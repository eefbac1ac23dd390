package main

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

type reportData struct {
	s                        settings
	v                        *verdict
	started                  time.Time
	ran                      time.Duration
	base, end                resources
	settled                  time.Duration
	back                     bool
	baseRSS, peakRSS, endRSS int64 // KiB
	overAt, abortAt          int64 // unix ms: RSS first past the bound, past the abort level (0: never)
	isolation                string
	stillServes              string // what went wrong with benign runs after the soak ("" : nothing)
}

func verdictWord(ok bool) string {
	if ok {
		return "met"
	}
	return "**FAILED**"
}

func mib(kib int64) string { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }

// report prints the markdown section for bench/RESULTS.md.
func report(d reportData) {
	s, v := d.s, d.v
	total := 0
	for _, st := range v.classes {
		total += st.runs
	}
	fmt.Printf("## Soak: %d submitters for %s, %.0f%% hostile, random child kills\n\n", s.submitters, s.duration, 100*s.hostile)
	fmt.Printf("- date: %s; machine: %d cores; engine: %s, default pool and limits but a timeout of %s (the longest deadline), the demo tools plus `stubborn`\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU(), d.isolation, longestDeadline(classes))
	fmt.Printf("- command: `%s` (part of `make bench`: bench/run.sh); seed %d\n", s.command, s.seed)
	fmt.Printf("- %d submissions in %s (%.0f/s); a SIGKILL to a random sandboxed child younger than %s every %s on average: %d sent, %d of them explain a crashed run\n",
		total, d.ran.Round(time.Second), float64(total)/d.ran.Seconds(), s.killYoung, s.killEvery, v.kills, v.killsUsed)
	fmt.Println("- a crashed run counts as killed when a kill was sent while it ran, each kill explaining at most one; " +
		"`emit` effects are counted in the tool, per submission; statuses of runs without a response come from their `*ExecError`")
	fmt.Println()

	fmt.Println("| class | what | runs | statuses | expected | killed | wrong | median | max | past deadline (max) |")
	fmt.Println("| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |")
	for _, c := range s.classes {
		st := v.classes[c]
		if st == nil {
			fmt.Printf("| %s | %s | 0 | | %s | | | | | |\n", c.name, c.what, wantText(c))
			continue
		}
		sort.Slice(st.elapsed, func(i, j int) bool { return st.elapsed[i] < st.elapsed[j] })
		past := ""
		if c.deadline > 0 {
			past = ms(st.overrun)
		}
		kind := "benign"
		if c.hostile {
			kind = "hostile"
		}
		what := c.what
		if c.suite != "" {
			what += fmt.Sprintf(" (`%s/%s.py`)", suiteDir, c.suite)
		}
		if c.deadline > 0 {
			what += fmt.Sprintf("; deadline %s", c.deadline)
		}
		fmt.Printf("| %s | %s: %s | %d | %s | %s | %d | %d | %s | %s | %s |\n", c.name, kind, what, st.runs, statusText(st.statuses),
			wantText(c), st.killed, st.wrong, ms(st.elapsed[len(st.elapsed)/2]), ms(st.elapsed[len(st.elapsed)-1]), past)
	}
	fmt.Println()

	rssOK := d.overAt == 0
	fmt.Println("| invariant | measured | verdict |")
	fmt.Println("| --- | --- | --- |")
	fmt.Printf("| nothing lost: every submission returned (drain %s) | %d without a response | %s |\n", s.drain, len(v.lost), verdictWord(len(v.lost) == 0))
	fmt.Printf("| each ended with its class's status (crashed only where a kill explains it) | %d wrong | %s |\n", v.wrongStatus, verdictWord(v.wrongStatus == 0))
	fmt.Printf("| ok runs returned the right value | %d wrong | %s |\n", v.wrongValue, verdictWord(v.wrongValue == 0))
	fmt.Printf("| nothing duplicated: `emit` effects per run, counted in the tool | %d runs with extra effects, %d (not killed) with missing ones, %d stray | %s |\n",
		v.duplicated, v.missing, v.stray+v.unread, verdictWord(v.duplicated+v.missing+v.stray+v.unread == 0))
	fmt.Printf("| every failure an `*ExecError` matching its status, one prefix; no valid request blamed on the caller | %d breaches | %s |\n", v.contract, verdictWord(v.contract == 0))
	fmt.Printf("| runs with a deadline return within it plus %s | %d late | %s |\n", s.overrun, v.overruns, verdictWord(v.overruns == 0))
	passed := ""
	if !rssOK {
		passed = fmt.Sprintf("; past the bound %s into the run", time.UnixMilli(d.overAt).Sub(d.started).Round(time.Second))
	}
	if d.abortAt != 0 {
		passed += fmt.Sprintf("; past %d MiB %s into the run, which then stopped and cancelled what ran",
			s.abortMiB, time.UnixMilli(d.abortAt).Sub(d.started).Round(time.Second))
	}
	fmt.Printf("| host RSS under %d MiB (VmRSS every second) | baseline %s, **peak %s**, end %s%s | %s |\n",
		s.maxRSSMiB, mib(d.baseRSS), mib(d.peakRSS), mib(d.endRSS), passed, verdictWord(rssOK))
	fmt.Printf("| afterwards the engine still serves: one run of each benign class | %s | %s |\n", orNothing(d.stillServes), verdictWord(d.stillServes == ""))
	fmt.Printf("| back to baseline within %s: descriptors, goroutines, sandboxed children | fds %d → %d, goroutines %d → %d, children %d → %d (after %s) | %s |\n",
		s.settle, d.base.fds, d.end.fds, d.base.goroutines, d.end.goroutines, d.base.children, d.end.children, d.settled.Round(100*time.Millisecond), verdictWord(d.back))
	fmt.Printf("| the harness sees the sandbox: spare children at the baseline, random kills sent | %d children, %d kills | %s |\n",
		d.base.children, v.kills, verdictWord(seesSandbox(d.base, s.killEvery, v.kills)))
	fmt.Println()
	if len(v.examples) > 0 {
		fmt.Println("Failures, the first of each kind (and how many runs failed that way):")
		fmt.Println()
		for _, e := range v.examples {
			fmt.Printf("- %s (%d)\n", strings.ReplaceAll(e.text, "\n", " "), e.count)
		}
		fmt.Println()
	}
}

func orNothing(s string) string {
	if s == "" {
		return "all ok"
	}
	return s
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/1e6) }

func statusText(m map[host.Status]int) string {
	var keys []string
	for k := range m {
		keys = append(keys, string(k))
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[host.Status(k)]))
	}
	return strings.Join(parts, ", ")
}

func wantText(c *class) string {
	var parts []string
	for _, w := range c.want {
		parts = append(parts, string(w))
	}
	text := strings.Join(parts, " or ")
	if c.emits > 0 {
		text += fmt.Sprintf(", %d emit", c.emits)
	} else {
		text += ", no emit"
	}
	return text
}
