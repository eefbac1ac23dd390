package guestcache

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/guest"
)

func openIn(t *testing.T) *Cache {
	t.Helper()
	c, err := Open(filepath.Join(t.TempDir(), "guest-code"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var module = guest.Module{Name: "early", Source: []byte("x = 1\n")}

func TestAStoredEntryLoadsForItsExactSourceOnly(t *testing.T) {
	c := openIn(t)
	code := []byte("head and marshal data")
	if err := c.Store(module, code); err != nil {
		t.Fatal(err)
	}
	got, err := c.Load(module)
	if err != nil || !bytes.Equal(got, code) {
		t.Fatalf("Load: %q, %v; want %q", got, err, code)
	}
	for _, other := range []guest.Module{
		{Name: "early", Source: []byte("x = 2\n")}, // the source changed
		{Name: "effects", Source: module.Source},   // the same source as another module
	} {
		if got, err := c.Load(other); !errors.Is(err, ErrNoEntry) {
			t.Errorf("Load(%s, %q) = %q, %v; want ErrNoEntry", other.Name, other.Source, got, err)
		}
	}
}

func TestEntriesAndTheDirectoryAreTheUsersAlone(t *testing.T) {
	c := openIn(t)
	if err := c.Store(module, []byte("code")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(c.Dir())
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode %v (%v), want 0700", st.Mode().Perm(), err)
	}
	entries, err := os.ReadDir(c.Dir())
	if err != nil || len(entries) != 1 {
		t.Fatalf("entries %v (%v): want the one entry, no temporary file left", entries, err)
	}
	info, err := entries[0].Info()
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("entry mode %v (%v), want 0600", info.Mode().Perm(), err)
	}
}

// The entry's file, read by the test as it is on disk.
func entryFile(t *testing.T, c *Cache) string {
	t.Helper()
	k := key(module)
	return c.path(k)
}

func TestAStaleTruncatedOrCorruptEntryIsNeverLoadedAndTheNextStoreReplacesIt(t *testing.T) {
	c := openIn(t)
	code := []byte("the code a guest compiled from this very source")
	if err := c.Store(module, code); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(entryFile(t, c))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Store(guest.Module{Name: module.Name, Source: []byte("x = 3\n")}, code); err != nil {
		t.Fatal(err)
	}
	stale, err := os.ReadFile(c.path(key(guest.Module{Name: module.Name, Source: []byte("x = 3\n")})))
	if err != nil {
		t.Fatal(err)
	}
	flip := func(at int) []byte {
		b := bytes.Clone(whole)
		b[at] ^= 0x40
		return b
	}
	cases := map[string][]byte{
		"empty":                          {},
		"truncated in the key":           whole[:10],
		"truncated after the digests":    whole[:2*digestLen],
		"truncated in the code":          whole[:len(whole)-1],
		"longer than written":            append(bytes.Clone(whole), 'x'),
		"a byte of the code changed":     flip(len(whole) - 3),
		"a byte of the key changed":      flip(0),
		"a byte of the digest changed":   flip(digestLen + 1),
		"another source's entry renamed": stale,
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(entryFile(t, c), data, 0o600); err != nil {
				t.Fatal(err)
			}
			if got, err := c.Load(module); !errors.Is(err, ErrNoEntry) {
				t.Fatalf("Load = %q, %v; want ErrNoEntry", got, err)
			}
			if err := c.Store(module, code); err != nil {
				t.Fatal(err)
			}
			if got, err := c.Load(module); err != nil || !bytes.Equal(got, code) {
				t.Fatalf("after Store: %q, %v", got, err)
			}
		})
	}
}

func TestOpenRefusesADirectoryOthersMayWriteOrThatIsNotOne(t *testing.T) {
	base := t.TempDir()
	open := filepath.Join(base, "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o770); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(open); err == nil || !strings.Contains(err.Error(), "open to other users (mode 770)") {
		t.Fatalf("Open(group-writable) = %v", err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(link); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Fatalf("Open(symlink) = %v", err)
	}
}

func TestANilCacheKeepsNothing(t *testing.T) {
	var c *Cache
	if err := c.Store(module, []byte("code")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Load(module); !errors.Is(err, ErrNoEntry) {
		t.Fatalf("Load on no cache: %v", err)
	}
}
