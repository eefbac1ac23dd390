package testenv

import (
	"bytes"
	"encoding/binary"
	"os/exec"
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/guest"
	"github.com/spine-sandbox/spine/internal/guestcache"
)

// Marshalled is /usr/bin/python3's marshal of the code compiled from source
// as the guest module `name`: code as a guest would keep it, after a head.
func Marshalled(t testing.TB, name, source string) []byte {
	t.Helper()
	out, err := exec.Command("/usr/bin/python3", "-I", "-S", "-c",
		"import marshal, sys; sys.stdout.buffer.write(marshal.dumps(compile(sys.argv[1], sys.argv[2], 'exec')))",
		source, "<guest/"+name+".py>").Output()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// GuestCodeHead is the head of the code a guest kept for m: importlib's
// magic number, the length and text of sys.version (guest-c/runtime.c).
func GuestCodeHead(t testing.TB, c *guestcache.Cache, m guest.Module) []byte {
	t.Helper()
	code, err := c.Load(m)
	if err != nil || len(code) < 8 {
		t.Fatalf("no code kept for %s: %v", m.Name, err)
	}
	n := 8 + int(binary.LittleEndian.Uint32(code[4:8]))
	if len(code) <= n || !strings.HasPrefix(string(code[8:n]), "3.") {
		t.Fatalf("%s's code does not start with a magic number and sys.version: %q", m.Name, code[:min(len(code), 80)])
	}
	return bytes.Clone(code[:n])
}

// RaisingGuestCode is code for m under head that raises
// RuntimeError('the kept code ran') when run: kept for m, it shows whether a
// guest runs the kept code or compiles the source.
func RaisingGuestCode(t testing.TB, head []byte, m guest.Module) []byte {
	return append(bytes.Clone(head), Marshalled(t, m.Name, "raise RuntimeError('the kept code ran')")...)
}
