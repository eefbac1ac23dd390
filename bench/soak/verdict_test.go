package main

import (
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

func TestEachKillExplainsOneCrashInFlight(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	crashed := func(id int64, from, to int) record {
		return record{id: id, start: at(from), end: at(to), out: outcome{status: host.StatusCrashed}}
	}
	records := []record{
		crashed(1, 0, 100),   // the kill at 50
		crashed(2, 0, 100),   // no kill left for it: the one at 50 is taken
		crashed(3, 200, 300), // the kill at 150 was before it started
		crashed(4, 400, 500), // the kill at 450
		{id: 5, start: at(0), end: at(1000), out: outcome{status: host.StatusOK}},
	}
	kills := []kill{{at(450), at(451)}, {at(150), at(151)}, {at(50), at(51)}}
	got := explainCrashes(records, kills)
	want := map[int64]bool{1: true, 4: true}
	if len(got) != len(want) || !got[1] || !got[4] {
		t.Fatalf("explained %v, want %v", got, want)
	}
}

func TestDoubledPrefix(t *testing.T) {
	for message, want := range map[string]bool{
		"crashed: crashed: the sandboxed child died of signal killed":     true,
		"spine: execution timed out: spine: execution timed out":          true,
		"memory: the program exceeded its memory limit":                   false,
		"spine: the sandboxed guest failed: the child died of signal 9":   false,
		"TimeoutError: the execution exceeded its deadline":               false,
		"output_limit: output_limit: the program wrote more than allowed": true,
	} {
		if got := doubled(message); got != want {
			t.Errorf("doubled(%q) = %v, want %v", message, got, want)
		}
	}
}
