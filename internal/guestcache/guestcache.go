// Package guestcache keeps the guest modules' compiled code from one start
// to the next, so that a zygote or an in-process guest runs it instead of
// compiling about 300 KB of Python each time (some 50 ms of CPU, a quarter
// of a `spine run`).
//
// The host alone reads and writes the cache: a guest is handed an entry's
// code with its module's source and hands back what it compiled, and the
// zygote, which runs that code before it confines itself, never opens a
// file here (its children could not either: the directory is outside their
// root and Landlock grants nothing in it). Two checks stand between a file
// and the interpreter. Here: an entry names the exact source it was compiled
// from (a SHA-256 of the module's name and source) and carries a SHA-256 of
// its code, so a stale, truncated or corrupted file is never handed over.
// In the guest (guest-c/runtime.c): the code begins with importlib's magic
// number and sys.version, and an interpreter runs only code it made itself.
// Whatever fails either check is compiled from source again and rewritten.
package guestcache

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"unsafe"

	"github.com/spine-sandbox/spine/guest"
	"github.com/spine-sandbox/spine/internal/atomicfile"
)

// Cache is a directory of entries, one file per module source:
//
//	name: hex SHA-256 of the module's name, NUL, its source
//	data: that SHA-256 (32 bytes), the SHA-256 of the code (32 bytes), the code
//
// The name is in the key because the code records it (tracebacks show
// <guest/NAME.py>).
type Cache struct{ dir string }

const digestLen = sha256.Size

// DefaultDir is where the cache lives unless a caller says otherwise: beside
// the native module cache, under the user's cache directory.
func DefaultDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "spine", "guest-code"), nil
}

// Open makes (0700) or checks the cache directory dir ("": DefaultDir). It
// refuses a directory that is not this user's own or that others may write
// to: its entries run in the zygote before it confines itself. Callers go on
// without a cache (a nil *Cache, whose methods do nothing) when it fails.
func Open(dir string) (*Cache, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, fmt.Errorf("guest code cache: %w", err)
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("guest code cache: %w", err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("guest code cache: %w", err)
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	switch {
	case !st.IsDir():
		return nil, fmt.Errorf("guest code cache: %s is not a directory", dir)
	case !ok || int(sys.Uid) != os.Getuid():
		return nil, fmt.Errorf("guest code cache: %s is not this user's", dir)
	case st.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("guest code cache: %s is open to other users (mode %o)", dir, st.Mode().Perm())
	}
	return &Cache{dir: dir}, nil
}

// Dir is the cache's directory.
func (c *Cache) Dir() string {
	if c == nil {
		return ""
	}
	return c.dir
}

// keys remembers each module's key by name, for the very source it was
// worked out from (the same bytes: guest.Modules are read once per
// process), so that the pool, the in-process guest and the kept plans hash
// the guest's 300 KB once per process.
var keys sync.Map // module name -> keyed

type keyed struct {
	source []byte
	key    [digestLen]byte
}

func key(m guest.Module) [digestLen]byte {
	if k, ok := keys.Load(m.Name); ok {
		if k := k.(keyed); len(k.source) == len(m.Source) && unsafe.SliceData(k.source) == unsafe.SliceData(m.Source) {
			return k.key
		}
	}
	k := hashKey(m)
	keys.Store(m.Name, keyed{source: m.Source, key: k})
	return k
}

func hashKey(m guest.Module) [digestLen]byte {
	h := sha256.New()
	h.Write([]byte(m.Name))
	h.Write([]byte{0})
	h.Write(m.Source)
	var k [digestLen]byte
	h.Sum(k[:0])
	return k
}

func (c *Cache) path(k [digestLen]byte) string { return filepath.Join(c.dir, fmt.Sprintf("%x", k)) }

// ErrNoEntry says there is no usable entry for a module: none, or one that
// is stale, truncated or corrupted (which the next Store replaces).
var ErrNoEntry = errors.New("no usable guest code entry")

// Load returns the code kept for m's exact source, or ErrNoEntry.
func (c *Cache) Load(m guest.Module) ([]byte, error) { return c.LoadEntry(key(m)) }

// LoadEntry returns the data kept under k, or ErrNoEntry when there is none
// or the file is not whole: it must name k and carry its data's SHA-256.
func (c *Cache) LoadEntry(k [digestLen]byte) ([]byte, error) {
	if c == nil {
		return nil, ErrNoEntry
	}
	data, err := os.ReadFile(c.path(k))
	if err != nil || len(data) <= 2*digestLen || !bytes.Equal(data[:digestLen], k[:]) {
		return nil, ErrNoEntry
	}
	code := data[2*digestLen:]
	if sum := sha256.Sum256(code); !bytes.Equal(data[digestLen:2*digestLen], sum[:]) {
		return nil, ErrNoEntry
	}
	return code, nil
}

// Store keeps code, compiled by a guest from m's source, for the next start:
// written under a temporary name (0600) and renamed, so a reader sees the
// old entry or the whole new one.
func (c *Cache) Store(m guest.Module, code []byte) error { return c.StoreEntry(key(m), code) }

// StoreEntry keeps data under k, in the shape LoadEntry checks.
func (c *Cache) StoreEntry(k [digestLen]byte, data []byte) error {
	if c == nil || len(data) == 0 {
		return nil
	}
	sum := sha256.Sum256(data)
	return atomicfile.Write(c.dir, fmt.Sprintf("%x", k), append(append(k[:], sum[:]...), data...))
}

// MaxCodeSize bounds the marshalled code the host takes from a guest for a
// source of sourceLen bytes (a guest module's, or a program's): a code
// object is about as large as its source (docstrings, names and constants
// once, a few bytes per instruction), so several times the source is far
// beyond any real one.
func MaxCodeSize(sourceLen int) int { return 8*sourceLen + 64<<10 }

// ModulesDigest names the exact sources of modules (each by its entry's
// key, in order): what a guest makes from a program depends on them.
func ModulesDigest(modules []guest.Module) [digestLen]byte {
	h := sha256.New()
	for _, m := range modules {
		k := key(m)
		h.Write(k[:])
	}
	var d [digestLen]byte
	h.Sum(d[:0])
	return d
}

// StoreAll keeps what a guest compiled at this start (module name to code),
// for the modules it was given; a name that is not a guest module is
// ignored. The first failure is returned, after trying every module.
func (c *Cache) StoreAll(modules []guest.Module, compiled map[string][]byte) error {
	var first error
	for _, m := range modules {
		if code, ok := compiled[m.Name]; ok {
			if err := c.Store(m, code); err != nil && first == nil {
				first = err
			}
		}
	}
	return first
}
