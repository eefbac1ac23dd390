package main

import (
	"context"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// The harness must see a real sandbox's children: its kills and its
// children's return to baseline measure nothing otherwise. A default
// engine keeps spare children warm, so some must be found, each a
// descendant of a zygote this process started; and once one is killed,
// the engine serves the next execution with another.
func TestHarnessFindsAndKillsTheSandboxChildren(t *testing.T) {
	engine, err := host.New()
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	ctx := context.Background()
	if _, err := engine.Execute(ctx, host.Request{Source: "result = 1"}); err != nil {
		t.Fatal(err)
	}
	var children []process
	for deadline := time.Now().Add(30 * time.Second); len(children) == 0; {
		if time.Now().After(deadline) {
			t.Fatal("no sandboxed child found under this process's zygote")
		}
		time.Sleep(20 * time.Millisecond)
		children = sandboxChildren()
	}
	for _, c := range children {
		parent, ok := stat(c.ppid)
		if !ok || !isZygote(parent) {
			t.Fatalf("child %d (%s) is not a zygote's: its parent is %+v", c.pid, c.comm, parent)
		}
		if age(c) <= 0 || age(c) > time.Hour {
			t.Fatalf("child %d has age %v", c.pid, age(c))
		}
	}
	victim := children[0]
	if !killChild(victim) {
		t.Fatalf("could not kill child %d", victim.pid)
	}
	// Once the kill has landed, the pool must not hand out the dead spare.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if now, ok := stat(victim.pid); !ok || now.state == "Z" || now.started != victim.started {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("child %d outlived its SIGKILL", victim.pid)
		}
	}
	resp, err := engine.Execute(ctx, host.Request{Source: "result = 2"})
	if err != nil || string(resp.Value) != "2" || resp.Isolation != "sandbox" {
		t.Fatalf("after a kill: %v %+v", err, resp)
	}
}

func TestSeesSandboxNeedsChildrenAndKills(t *testing.T) {
	cases := []struct {
		children, kills int
		every           time.Duration
		want            bool
	}{
		{4, 300, time.Second, true},
		{0, 0, time.Second, false}, // blind: no child found
		{4, 0, time.Second, false}, // children found, never killed
		{4, 0, 0, true},            // no kills asked for
		{0, 0, 0, false},
	}
	for _, c := range cases {
		if got := seesSandbox(resources{children: c.children}, c.every, c.kills); got != c.want {
			t.Errorf("seesSandbox(children %d, every %v, kills %d) = %v, want %v", c.children, c.every, c.kills, got, c.want)
		}
	}
}
