package main

import (
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
)

func TestSuiteHeader(t *testing.T) {
	status, plm, deadline, err := readHeader("# expect: timeout\n# mode: plm\n# deadline: 3s\n# what it does\nwhile True: pass\n# not the header\n")
	if err != nil || status != host.StatusTimeout || !plm || deadline != 3*time.Second {
		t.Fatalf("got %q %v %v %v", status, plm, deadline, err)
	}
	if _, _, _, err := readHeader("# expect: error ValueError\n"); err == nil {
		t.Fatal("an outcome with an exception type was taken")
	}
	if _, _, _, err := readHeader("# mode: stream\n# expect: ok\n"); err == nil {
		t.Fatal("a streamed program was taken")
	}
	if _, _, d, err := readHeader("# expect: memory\n"); err != nil || d != suiteDeadline {
		t.Fatalf("default deadline %v %v", d, err)
	}
}
