// Command sessionbench measures the latency of a step: 10 steps in one
// session against 10 one-shot executions of the same programs, in both
// isolation modes. It prints a Markdown section.
package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/spine-sandbox/spine/host"
)

const (
	steps  = 10
	rounds = 20
)

// step is one step of a code agent: it reads what earlier steps made when
// there are any (a session), and makes it anew otherwise (one-shot).
const step = `
if "rows" not in globals():
    rows = [{"id": i, "score": i * 7 % 11} for i in range(200)]
best = sorted(rows, key=lambda r: r["score"])[-3:]
result = [r["id"] for r in best]
`

func median(samples []time.Duration) time.Duration {
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	return samples[len(samples)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d.Microseconds())/1000) }

func measure(level host.Isolation) (session, oneShot, open time.Duration, err error) {
	e, err := host.New(host.WithIsolation(level))
	if err != nil {
		return 0, 0, 0, err
	}
	defer e.Close()
	ctx := context.Background()
	var inSession, alone, opens []time.Duration
	for round := 0; round < rounds+2; round++ {
		start := time.Now()
		s, err := e.Session(ctx, host.SessionOptions{})
		if err != nil {
			return 0, 0, 0, err
		}
		opened := time.Since(start)
		for i := 0; i < steps; i++ {
			start := time.Now()
			if _, err := s.Execute(ctx, host.Request{Source: step}); err != nil {
				return 0, 0, 0, err
			}
			if round >= 2 {
				inSession = append(inSession, time.Since(start))
			}
		}
		s.Close()
		for i := 0; i < steps; i++ {
			start := time.Now()
			if _, err := e.Execute(ctx, host.Request{Source: step}); err != nil {
				return 0, 0, 0, err
			}
			if round >= 2 {
				alone = append(alone, time.Since(start))
			}
		}
		if round >= 2 {
			opens = append(opens, opened)
		}
	}
	return median(inSession), median(alone), median(opens), nil
}

func main() {
	fmt.Println("## Sessions: a 10-step session against 10 one-shot executions")
	fmt.Println()
	fmt.Printf("Each step sorts 200 rows it builds on first use (a session builds them once). Median latency per step over %d rounds of %d steps; opening a session (taking its child) is timed apart.\n\n", rounds, steps)
	fmt.Println("| isolation | step in a session (ms) | one-shot execution (ms) | one-shot / session | opening a session (ms) |")
	fmt.Println("|---|---|---|---|---|")
	for _, level := range []host.Isolation{host.Sandbox, host.Inproc} {
		session, oneShot, open, err := measure(level)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sessionbench:", err)
			os.Exit(1)
		}
		fmt.Printf("| %s | %s | %s | %.2f | %s |\n", level, ms(session), ms(oneShot), float64(oneShot)/float64(session), ms(open))
	}
	fmt.Println()
}
