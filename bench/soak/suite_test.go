package main

import (
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/host"
	"github.com/spine-sandbox/spine/tests/security"
)

func TestSuiteHeader(t *testing.T) {
	status, plm, deadline, err := readHeader([]byte("# expect: timeout\n# mode: plm\n# deadline: 3s\n# what it does\nwhile True: pass\n# not the header\n"))
	if err != nil || status != host.StatusTimeout || !plm || deadline != 3*time.Second {
		t.Fatalf("got %q %v %v %v", status, plm, deadline, err)
	}
	if _, _, _, err := readHeader([]byte("# expect: error ValueError\n# why\n")); err == nil || !strings.Contains(err.Error(), "exception type") {
		t.Fatalf("an outcome with an exception type: %v", err)
	}
	if _, _, _, err := readHeader([]byte("# expect: ok\n# mode: stream\n# why\n")); err == nil || !strings.Contains(err.Error(), "stream") {
		t.Fatalf("a streamed program: %v", err)
	}
	if _, _, _, err := readHeader([]byte("# expect: memory\n# deadline: soon\n# why\n")); err == nil {
		t.Fatal("a malformed header was taken")
	}
	if _, _, d, err := readHeader([]byte("# expect: memory\n# why\n")); err != nil || d != security.DefaultDeadline {
		t.Fatalf("default deadline %v %v", d, err)
	}
}
