package wire

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/guest"
	"github.com/spine-sandbox/spine/internal/guestcache"
	"github.com/spine-sandbox/spine/internal/testenv"
)

func guestCodePool(t *testing.T, dir string, lowered bool) (*Pool, error) {
	t.Helper()
	opts := Options{Binary: testenv.GuestBinary(t), Prefork: 1, MemoryBytes: 512 << 20, CPUSeconds: 10, GuestCodeDir: dir}
	if lowered {
		opts.AllowNoNamespaces, opts.withoutNamespaces = true, errors.New("namespaces refused by the test")
	}
	p, err := NewPool(opts)
	if err == nil {
		t.Cleanup(func() { p.Close() })
	}
	return p, err
}

// The zygote runs the code the host kept, if its own interpreter made it:
// code that raises, under this interpreter's head, stops the zygote's start
// (so the kept code is what runs, not the source); under any other head, or
// when it is not whole marshal data of a code object, it is never run: the
// zygote compiles the source, starts, and the host rewrites the entry.
func TestTheZygoteRunsOnlyTheGuestCodeItsInterpreterMade(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "guest-code")
	p, err := guestCodePool(t, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	cache, err := guestcache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	modules := guest.Modules()
	for _, m := range modules {
		if _, err := cache.Load(m); err != nil {
			t.Fatalf("the first start kept no code for %s: %v", m.Name, err)
		}
	}
	first := modules[0] // loaded first: its code runs before any other module's
	head := testenv.GuestCodeHead(t, cache, first)
	raising := testenv.RaisingGuestCode(t, head, first)[len(head):]
	if err := cache.Store(first, append(bytes.Clone(head), raising...)); err != nil {
		t.Fatal(err)
	}
	if _, err := guestCodePool(t, dir, false); err == nil || !strings.Contains(err.Error(), "RuntimeError: the kept code ran") {
		t.Fatalf("NewPool with kept code that raises: %v; want the zygote to fail running it", err)
	}

	otherMagic := bytes.Clone(head)
	otherMagic[0] ^= 1
	otherVersion := bytes.Clone(head)
	otherVersion[len(otherVersion)-1] ^= 1
	whole := testenv.Marshalled(t, first.Name, string(first.Source))
	cases := map[string][]byte{
		"another magic number":       append(otherMagic, raising...),
		"another sys.version":        append(otherVersion, raising...),
		"marshal data cut short":     append(bytes.Clone(head), whole[:len(whole)/2]...),
		"not marshal data":           append(bytes.Clone(head), 0xff, 0xfe, 0xfd),
		"marshal data of an integer": append(bytes.Clone(head), 'i', 7, 0, 0, 0),
		"the head alone":             bytes.Clone(head),
	}
	for name, code := range cases {
		t.Run(name, func(t *testing.T) {
			if err := cache.Store(first, code); err != nil {
				t.Fatal(err)
			}
			p, err := guestCodePool(t, dir, false)
			if err != nil {
				t.Fatalf("NewPool: %v", err)
			}
			if v := mustValue(t, p, "result = 6 * 7"); v != "42" {
				t.Fatalf("value %s", v)
			}
			kept, err := cache.Load(first)
			if err != nil || !bytes.HasPrefix(kept, head) || bytes.Equal(kept, code) || len(kept) <= len(head)+len(whole)/2 {
				t.Fatalf("the entry was not rewritten with this interpreter's compilation (%d bytes, %v)", len(kept), err)
			}
		})
	}
}

// A file of the cache that is truncated is never handed to the zygote: it
// compiles the source and the host writes the entry again.
func TestATruncatedGuestCodeFileIsCompiledAgainAndRewritten(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "guest-code")
	p, err := guestCodePool(t, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	files, err := os.ReadDir(dir)
	if err != nil || len(files) != len(guest.Modules()) {
		t.Fatalf("%d files (%v), want one per guest module", len(files), err)
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name())
		st, err := os.Stat(path)
		if err != nil || os.Truncate(path, st.Size()/2) != nil {
			t.Fatalf("cannot truncate %s: %v", path, err)
		}
	}
	p, err = guestCodePool(t, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if v := mustValue(t, p, "result = sorted({'b': 1, 'a': 2})"); v != `["a","b"]` {
		t.Fatalf("value %s", v)
	}
	cache, err := guestcache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range guest.Modules() {
		if _, err := cache.Load(m); err != nil {
			t.Fatalf("%s's entry was not rewritten: %v", m.Name, err)
		}
	}
}

// A sandboxed child can neither list, read nor write the guest code cache,
// whose entries the zygote runs before it confines itself: outside its
// private root it does not exist, and without namespaces Landlock grants
// nothing there.
func TestAChildCannotReachTheGuestCodeCache(t *testing.T) {
	for _, lowered := range []bool{false, true} {
		t.Run(map[bool]string{false: "private root", true: "Landlock alone"}[lowered], func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "guest-code")
			p, err := guestCodePool(t, dir, lowered)
			if err != nil {
				t.Fatal(err)
			}
			before, err := os.ReadDir(dir)
			if err != nil || len(before) == 0 {
				t.Fatalf("no entries (%v)", err)
			}
			entry := filepath.Join(dir, before[0].Name())
			kept, err := os.ReadFile(entry)
			if err != nil {
				t.Fatal(err)
			}
			o := runIn(t, p, `
import os
def attempt(fn):
    try:
        fn()
        return 'done'
    except OSError as e:
        return type(e).__name__
def write(path, mode):
    with open(path, mode) as f:
        f.write(b'planted')
result = [
    attempt(lambda: os.listdir(`+strconv.Quote(dir)+`)),
    attempt(lambda: open(`+strconv.Quote(entry)+`, 'rb').read(1)),
    attempt(lambda: write(`+strconv.Quote(entry)+`, 'r+b')),
    attempt(lambda: write(`+strconv.Quote(filepath.Join(dir, "planted"))+`, 'wb')),
    attempt(lambda: os.rename(`+strconv.Quote(entry)+`, `+strconv.Quote(entry+".moved")+`)),
]
`, 10*time.Second, false)
			if o.err != nil {
				t.Fatal(o.err)
			}
			denied := `"FileNotFoundError"`
			if lowered {
				denied = `"PermissionError"`
			}
			want := "[" + strings.Repeat(denied+",", 4) + denied + "]"
			if got := compact(decode(t, o.result).Value); got != want {
				t.Fatalf("value %s, want %s", got, want)
			}
			after, err := os.ReadDir(dir)
			now, rerr := os.ReadFile(entry)
			if err != nil || rerr != nil || len(after) != len(before) || !bytes.Equal(now, kept) {
				t.Fatalf("the cache changed: %d entries before, %d after (%v, %v)", len(before), len(after), err, rerr)
			}
		})
	}
}

// The host takes compiled code only for a guest module it sent, and no more
// of it than the module's source can make, however the chunks are cut.
func TestCompiledCodeIsBoundedByItsModule(t *testing.T) {
	m := guest.Module{Name: "small", Source: []byte("x = 1\n")}
	modules := []guest.Module{m}
	compiled := map[string][]byte{}
	chunk := append([]byte("small\x00"), make([]byte, 32<<10)...)
	if err := addCompiled(compiled, modules, chunk); err != nil {
		t.Fatalf("one chunk within the bound: %v", err)
	}
	if err := addCompiled(compiled, modules, chunk); err != nil {
		t.Fatalf("a second chunk within the bound: %v", err)
	}
	if err := addCompiled(compiled, modules, chunk); !errors.Is(err, ErrViolation) {
		t.Fatalf("code past %d bytes for a %d-byte source: %v, want ErrViolation", maxCompiledSize(m), len(m.Source), err)
	}
	if got := len(compiled["small"]); got != 64<<10 {
		t.Fatalf("kept %d bytes, want the two chunks within the bound (%d)", got, 64<<10)
	}
	if err := addCompiled(map[string][]byte{}, modules, []byte("other\x00code")); !errors.Is(err, ErrViolation) {
		t.Fatalf("code for no guest module: %v, want ErrViolation", err)
	}
	if err := addCompiled(map[string][]byte{}, modules, []byte("no separator")); !errors.Is(err, ErrViolation) {
		t.Fatalf("a frame without a name: %v, want ErrViolation", err)
	}
}
