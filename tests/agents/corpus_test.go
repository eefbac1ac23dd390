// Package agents runs the agent corpus: programs in the styles code agents
// write, against tools that keep state, plain, with PLM and streamed, in both
// isolation modes. Every mode must give the outcome of the plain program:
// the same value, error, stdout, effects in the same order and the same
// multiset of consumed calls, and that outcome is the one in each file's
// header.
package agents

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/agenttools"
	"github.com/spine-sandbox/spine/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite each program's header from a plain in-process run (review the diff)")

// chunkSizes are the byte sizes the program is streamed in: one byte (every
// prefix is seen), a size that ends chunks mid-token, and a line-ish size.
var chunkSizes = []int{1, 7, 64}

const minPrograms = 80

// latency keeps the tools' waits real but short. None is zero: a read
// started early takes its snapshot at once, and a write applies only when
// its wait ends, so a read moved above a write reads the old state every
// time, not only when the scheduler happens to delay it.
var latency = agenttools.Latency{Default: time.Millisecond, PerTool: map[string]time.Duration{
	"search": 2 * time.Millisecond, "fetch": 2 * time.Millisecond}}

func engine(t *testing.T, level host.Isolation) *host.Engine {
	opts := []host.Option{host.WithTools(agenttools.Tools(latency)...), host.WithIsolation(level)}
	if level == host.Sandbox {
		binary := testenv.GuestBinary(t)
		opts = append(opts, host.WithSandbox(host.SandboxOptions{Binary: binary}))
	}
	e, err := host.New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// plain runs a program to completion without PLM against a fresh world.
func plain(e *host.Engine, source string, inputs []byte) agenttools.Outcome {
	w := agenttools.NewWorld()
	resp, _ := e.Execute(agenttools.WithWorld(context.Background(), w), host.Request{Source: source, Inputs: inputs})
	return agenttools.Observe(resp, w)
}

func withPLM(t *testing.T, e *host.Engine, source string, inputs []byte) agenttools.Outcome {
	w := agenttools.NewWorld()
	resp, _ := e.Execute(agenttools.WithWorld(context.Background(), w), host.Request{Source: source, Inputs: inputs, PLM: true})
	noEarlyEffects(t, "PLM", resp)
	return agenttools.Observe(resp, w)
}

// noEarlyEffects fails when an effectful tool was started before the
// program reached it: effects run exactly when the plain program runs them.
func noEarlyEffects(t *testing.T, mode string, resp *host.Response) {
	if resp == nil {
		return
	}
	for _, c := range resp.Calls {
		if c.Early && agenttools.Effectful(c.Tool) {
			t.Errorf("%s started the effectful call %s%s early", mode, c.Tool, c.Args)
		}
	}
}

// streamed feeds the program in chunks of size bytes, then finishes it.
func streamed(t *testing.T, e *host.Engine, source string, inputs []byte, size int) agenttools.Outcome {
	w := agenttools.NewWorld()
	s, err := e.Stream(agenttools.WithWorld(context.Background(), w), host.Request{Inputs: inputs})
	if err != nil {
		t.Fatalf("Stream: %v", err)
	}
	for src := []byte(source); len(src) > 0; {
		n := min(size, len(src))
		if err := s.Feed(src[:n]); err != nil {
			t.Fatalf("Feed: %v", err)
		}
		src = src[n:]
	}
	resp, _ := s.Finish()
	noEarlyEffects(t, "stream/"+strconv.Itoa(size), resp)
	return agenttools.Observe(resp, w)
}

func TestAgentCorpus(t *testing.T) {
	if *update {
		rewriteHeaders(t)
		return
	}
	programs, err := agenttools.LoadCorpus(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(programs) < minPrograms {
		t.Fatalf("the corpus has %d programs, want at least %d", len(programs), minPrograms)
	}
	for _, level := range []host.Isolation{host.Inproc, host.Sandbox} {
		t.Run(string(level), func(t *testing.T) {
			e := engine(t, level)
			for _, p := range programs {
				t.Run(strings.TrimSuffix(p.Name, ".py"), func(t *testing.T) {
					t.Parallel()
					want := p.Want.String()
					base := plain(e, p.Source, p.Inputs).String()
					if base != want {
						t.Errorf("the plain run differs from the header:\n got  %s\n want %s", base, want)
					}
					check := func(mode string, o agenttools.Outcome) {
						got := o.String()
						if got != base {
							t.Errorf("%s differs from the plain run:\n got  %s\n plain %s", mode, got, base)
						} else if got != want {
							t.Errorf("%s differs from the header:\n got  %s\n want %s", mode, got, want)
						}
					}
					check("PLM", withPLM(t, e, p.Source, p.Inputs))
					for _, size := range chunkSizes {
						check("stream/"+strconv.Itoa(size), streamed(t, e, p.Source, p.Inputs, size))
					}
				})
			}
		})
	}
}

// rewriteHeaders replaces each program's header with the outcome of a plain
// in-process run; the inputs line is kept.
func rewriteHeaders(t *testing.T) {
	e := engine(t, host.Inproc)
	paths, _ := filepath.Glob("*.py")
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		header, body := agenttools.SplitHeader(string(data))
		inputs := []byte("{}")
		for _, line := range strings.Split(header, "\n") {
			if text, ok := strings.CutPrefix(line, "# inputs: "); ok {
				inputs = []byte(text)
			}
		}
		o := plain(e, string(data), inputs)
		if err := os.WriteFile(path, []byte(o.Header(inputs)+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
