// Command journalbench measures what suspend and resume cost: a program
// making 50 tool calls, then one that needs approval, run uninterrupted,
// run until it suspends, and resumed (the 50 calls answered from the
// journal), in both isolation modes. It prints a Markdown section.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/spine-sandbox/spine/host"
)

const calls = 50

// The tool waits like a real one (an RPC of 1 ms): what a resume saves is
// the tools' time, and what it costs is the program's rerun.
const toolLatency = time.Millisecond

const program = `
total = 0
for i in range(50):
    total += fetch(i=i)["n"]
result = send(total=total)
`

const rounds = 30

func tools() []host.Tool {
	fetch := host.NewTool(host.ToolSpec{Name: "fetch", Speculative: true}, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		time.Sleep(toolLatency)
		var a struct{ I int }
		json.Unmarshal(args, &a)
		return json.RawMessage(fmt.Sprintf(`{"n": %d}`, a.I)), nil
	})
	send := host.NewTool(host.ToolSpec{Name: "send"}, func(ctx context.Context, args json.RawMessage) (json.RawMessage, error) {
		time.Sleep(toolLatency)
		return json.RawMessage(`"sent"`), nil
	})
	return []host.Tool{fetch, send}
}

func median(samples []time.Duration) time.Duration {
	sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
	return samples[len(samples)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d.Microseconds())/1000) }

func measure(level host.Isolation) (plain, suspend, resume time.Duration, journalBytes int, err error) {
	e, err := host.New(host.WithTools(tools()...), host.WithIsolation(level))
	if err != nil {
		return 0, 0, 0, 0, err
	}
	defer e.Close()
	ctx := context.Background()
	var plains, suspends, resumes []time.Duration
	for round := 0; round < rounds+2; round++ {
		start := time.Now()
		if _, err := e.Execute(ctx, host.Request{Source: program}); err != nil {
			return 0, 0, 0, 0, err
		}
		plainTime := time.Since(start)
		start = time.Now()
		resp, err := e.Execute(ctx, host.Request{Source: program, RequireApproval: []string{"send"}})
		suspendTime := time.Since(start)
		if !errors.Is(err, host.ErrSuspended) {
			return 0, 0, 0, 0, fmt.Errorf("not suspended: %v", err)
		}
		encoded, _ := json.Marshal(resp.Journal)
		journalBytes = len(encoded)
		var j host.Journal
		json.Unmarshal(encoded, &j)
		start = time.Now()
		final, err := e.Resume(ctx, &j, host.Approve())
		resumeTime := time.Since(start)
		if err != nil || string(final.Value) != `"sent"` {
			return 0, 0, 0, 0, fmt.Errorf("resume: %v", err)
		}
		if round >= 2 { // warm-up rounds dropped
			plains, suspends, resumes = append(plains, plainTime), append(suspends, suspendTime), append(resumes, resumeTime)
		}
	}
	return median(plains), median(suspends), median(resumes), journalBytes, nil
}

func main() {
	fmt.Println("## Suspend and resume by replay: a 50-call program")
	fmt.Println()
	fmt.Printf("A program makes %d calls of a 1 ms tool, then one call that needs approval. Median of %d rounds (wall time of Execute / Resume, JSON round trip of the journal excluded).\n\n", calls, rounds)
	fmt.Println("| isolation | uninterrupted (ms) | run to suspension (ms) | resume (ms) | resume / uninterrupted | journal bytes |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, level := range []host.Isolation{host.Sandbox, host.Inproc} {
		plain, suspend, resume, size, err := measure(level)
		if err != nil {
			fmt.Fprintln(os.Stderr, "journalbench:", err)
			os.Exit(1)
		}
		fmt.Printf("| %s | %s | %s | %s | %.2f | %d |\n", level, ms(plain), ms(suspend), ms(resume), float64(resume)/float64(plain), size)
	}
	fmt.Println()
}
