package host_test

import (
	"context"
	"errors"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// TestCorpusSuspendedAtEveryEmitAndResumed runs every program of the PLM
// corpus with PLM and the effectful tool emit needing approval, approving
// each suspension in turn: the outcome (value or error, stdout, and the
// emitted sequence of the last run, which a resume starts with what the
// journal's calls emitted) is the one in the program's header,
// so a journaled execution (clock recorded, randomness seeded) means what
// the plain one does, and no emit the journal answered ran again.
func TestCorpusSuspendedAtEveryEmitAndResumed(t *testing.T) {
	cases := loadCorpus(t)
	for _, m := range isolationModes {
		t.Run(string(m.level), func(t *testing.T) {
			e := m.engine(t)
			suspendedSome := 0
			for _, c := range cases {
				ctx := context.Background()
				resp, err := e.Execute(ctx, host.Request{Source: c.source, Inputs: c.inputs, PLM: true, RequireApproval: []string{"emit"}})
				suspensions := 0
				for errors.Is(err, host.ErrSuspended) && suspensions <= len(c.emitted) {
					suspensions++
					resp, err = e.Resume(ctx, resp.Journal, host.Approve())
				}
				if resp == nil {
					t.Errorf("%s: no response: %v", c.name, err)
					continue
				}
				if suspensions > 0 {
					suspendedSome++
				}
				if c.err == "" && suspensions != len(c.emitted) {
					t.Errorf("%s: suspended %d times for %d emits", c.name, suspensions, len(c.emitted))
				}
				got := describe(resp.Value, resp.Error, resp.Stdout, resp.Emitted)
				if got != expected(c) {
					t.Errorf("%s (%d suspensions):\n got  %s\n want %s", c.name, suspensions, got, expected(c))
				}
			}
			if suspendedSome < 5 {
				t.Errorf("only %d programs suspended", suspendedSome)
			}
		})
	}
}
