package agents

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/internal/agenttools"
)

// effectfulTools names the engine's tools that change the world.
func effectfulTools(e *host.Engine) []string {
	var names []string
	for _, spec := range e.Tools() {
		if !spec.Speculative {
			names = append(names, spec.Name)
		}
	}
	return names
}

// consumed is the sorted multiset of the calls a response's program made
// and whose tool ran in that execution (not answered from a journal, not
// the pending call of a suspension).
func consumed(resp *host.Response) []string {
	var calls []string
	for _, c := range resp.Calls {
		if (!c.Early || c.Claimed) && !c.Replayed && !strings.HasPrefix(c.Error, "suspended:") {
			calls = append(calls, agenttools.Call{Tool: c.Tool, Args: c.Args}.String())
		}
	}
	return calls
}

// TestReplayCorpus suspends every program of the corpus at each of its
// effectful calls in turn (every effectful tool needs approval) and resumes
// it with approval each time: the final value, error, stdout and effects
// are those of an uninterrupted run, and across all the runs each call the
// program consumed ran exactly once (none the journal answered ran again).
func TestReplayCorpus(t *testing.T) {
	programs, err := agenttools.LoadCorpus(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []host.Isolation{host.Inproc, host.Sandbox} {
		t.Run(string(level), func(t *testing.T) {
			e := engine(t, level)
			gated := effectfulTools(e)
			tested := 0
			for _, p := range programs {
				if len(p.Want.Effects) == 0 {
					continue
				}
				tested++
				t.Run(strings.TrimSuffix(p.Name, ".py"), func(t *testing.T) {
					t.Parallel()
					base := withPLM(t, e, p.Source, p.Inputs)
					w := agenttools.NewWorld()
					ctx := agenttools.WithWorld(context.Background(), w)
					resp, err := e.Execute(ctx, host.Request{Source: p.Source, Inputs: p.Inputs, PLM: true, RequireApproval: gated})
					var ran []string
					suspensions := 0
					for errors.Is(err, host.ErrSuspended) {
						suspensions++
						ran = append(ran, consumed(resp)...)
						if suspensions > len(p.Want.Effects) {
							t.Fatalf("suspended %d times, the program has %d effects", suspensions, len(p.Want.Effects))
						}
						resp, err = e.Resume(ctx, resp.Journal, host.Approve())
					}
					if suspensions != len(p.Want.Effects) {
						t.Errorf("suspended %d times, want once per effect (%d): %v", suspensions, len(p.Want.Effects), err)
					}
					ran = append(ran, consumed(resp)...)
					got := agenttools.Observe(resp, w)
					if got.String() != base.String() {
						t.Errorf("resumed run differs from the uninterrupted one:\n got  %s\n want %s", got, base)
					}
					var want []string
					for _, c := range base.Calls {
						want = append(want, c.String())
					}
					sort.Strings(ran)
					if strings.Join(ran, "\n") != strings.Join(want, "\n") {
						t.Errorf("tools ran for\n %v\nwant each consumed call once:\n %v", ran, want)
					}
				})
			}
			if tested < 30 {
				t.Errorf("only %d programs have effects", tested)
			}
		})
	}
}
