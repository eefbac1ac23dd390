// Package keptplan keeps, per program, what a guest makes of it before it
// runs in native mode: the hot-function plan and the code hot.decorate
// marks (protocol.Compiled with its Plan). A sandboxed child then reads
// them from its request instead of parsing, planning and compiling the
// program (about 1.5 ms of its CPU, bench/RESULTS.md).
//
// What is kept comes only from a guest's first native crossing of a fresh
// child's one execution: the start bootstrap sends before the program runs
// (ExecuteRequest.KeepPlan), so it is made by our code alone from the
// program's source. The host knows that crossing by its own state
// (native.Session.LearnPlan), never by anything the guest says. Whatever is
// kept is checked for shape and size when it arrives and again when it is
// read back from disk; what fails a check is never used.
package keptplan

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/spine-sandbox/spine/guest"
	"github.com/spine-sandbox/spine/internal/guestcache"
	"github.com/spine-sandbox/spine/internal/protocol"
)

// Key names everything a kept plan and its code depend on.
type Key [sha256.Size]byte

// Store keeps plans in memory (for a long-lived engine) and in a directory
// only the host opens (for the next process).
type Store struct {
	disk   *guestcache.Cache // nil: memory only
	guests [sha256.Size]byte // the guest modules' sources

	mu    sync.Mutex
	mem   map[Key]json.RawMessage
	order []Key
}

const memEntries = 256

// diskEntries bounds the directory (a variable: a test lowers it).
var diskEntries = 4096

// Open makes a store whose entries live in dir ("": in memory only). A
// directory that cannot be used (not this user's, open to others) leaves
// the store in memory only, with the error.
func Open(dir string) (*Store, error) {
	s := &Store{guests: guestcache.ModulesDigest(guest.Modules()), mem: map[Key]json.RawMessage{}}
	if dir == "" {
		return s, nil
	}
	disk, err := guestcache.Open(dir)
	if err != nil {
		return s, fmt.Errorf("kept plans: %w", err)
	}
	s.disk = disk
	return s, nil
}

// KeyOf names a program's plan: its exact source, the manifest of its tools
// (the plan reads their names, PLM's rewrite the rest), PLM and its
// fan-out, and the guest's sources that plan and compile it. The Python
// that compiled it is not in the key: a guest reads code only its own
// version made, and compiles (and hands over) anew otherwise.
func (s *Store) KeyOf(source string, manifest []byte, plm bool, fanout int) Key {
	h := sha256.New()
	field := func(b []byte) {
		h.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(b))))
		h.Write(b)
	}
	field([]byte("spine kept plan 1"))
	field(s.guests[:])
	field([]byte(source))
	field(manifest)
	var flags [9]byte
	if plm {
		flags[0] = 1
	}
	binary.LittleEndian.PutUint64(flags[1:], uint64(fanout))
	field(flags[:])
	var k Key
	h.Sum(k[:0])
	return k
}

// Load is the plan kept under k for source (a protocol.Compiled's JSON,
// sent to the guest as it is), or nil. It was checked whole when it was
// kept (Keep); what is read back from disk must be that entry's exact bytes
// (guestcache's SHA-256), within the program's bound, and JSON. Not decoded
// again: that was half of what keeping the plan saves a `spine run`, and the
// guest reads it as data, falling back to compiling the source when it is
// not a plan it can use.
func (s *Store) Load(k Key, source string) json.RawMessage {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	kept := s.mem[k]
	s.mu.Unlock()
	if kept != nil {
		return kept
	}
	data, err := s.disk.LoadEntry(k)
	if err != nil || len(data) > maxEntry(source) || len(data) == 0 || data[0] != '{' || !json.Valid(data) {
		return nil
	}
	s.remember(k, data)
	return data
}

// Keep checks what a guest made of source (started: the units of the start
// that carried it) and keeps it under k, in memory and on disk.
func (s *Store) Keep(k Key, source string, kept *protocol.Compiled, started []protocol.NativeUnitSource) error {
	if s == nil {
		return nil
	}
	if err := Check(source, kept, started); err != nil {
		return err
	}
	data, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	s.remember(k, data)
	if s.disk == nil {
		return nil
	}
	s.makeRoom()
	return s.disk.StoreEntry(k, data)
}

func (s *Store) remember(k Key, kept json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.mem[k]; !ok {
		if len(s.order) >= memEntries {
			delete(s.mem, s.order[0])
			s.order = s.order[1:]
		}
		s.order = append(s.order, k)
	}
	s.mem[k] = kept
}

// makeRoom removes an entry when the directory holds diskEntries: one per
// program run natively, the directory would otherwise only grow.
func (s *Store) makeRoom() {
	dir, err := os.Open(s.disk.Dir())
	if err != nil {
		return
	}
	defer dir.Close()
	names, _ := dir.Readdirnames(diskEntries + 1)
	if len(names) >= diskEntries {
		os.Remove(s.disk.Dir() + "/" + names[0])
	}
}

// HasUnits reports whether a kept entry's plan hands any function to the
// compiler. The entry is the compact JSON Keep wrote (encoding/json
// compacts the guest's plan): its plan's empty unit list is the bytes
// `"units":[]`, which no string inside it can contain (a quote within a
// JSON string is escaped), and no other member is named "units".
func HasUnits(kept json.RawMessage) bool { return !bytes.Contains(kept, []byte(`"units":[]`)) }

// MaxSize bounds the code and the plan kept for a program of source: each
// is about as large as the program, as a guest module's code is.
func MaxSize(source string) int { return guestcache.MaxCodeSize(len(source)) }

// maxEntry bounds a kept entry: its code (base64), its plan and its PLM text.
func maxEntry(source string) int { return 3*MaxSize(source) + 4*protocol.TransformedChars }

// Check refuses a kept plan that no guest of ours makes from source: too
// large, not base64 code, names that are not text, units the plan does not
// list, or (started) a start whose units are not the plan's.
func Check(source string, kept *protocol.Compiled, started []protocol.NativeUnitSource) error {
	limit := MaxSize(source)
	switch {
	case kept == nil || len(kept.Plan) == 0:
		return errors.New("no plan")
	case kept.Python == "" || len(kept.Python) > 512 || !utf8.ValidString(kept.Python):
		return errors.New("no Python version")
	case len(kept.Code) > limit*4/3+4 || len(kept.Plan) > limit:
		return fmt.Errorf("larger than %d bytes", limit)
	case len(kept.Transformed) > 4*protocol.TransformedChars:
		return errors.New("transformed text too long")
	case len(kept.Helpers) > 64:
		return errors.New("too many helpers")
	}
	if code, err := base64.StdEncoding.DecodeString(kept.Code); err != nil || len(code) == 0 || len(code) > limit {
		return errors.New("code is not base64, or larger than its bound")
	}
	for _, h := range kept.Helpers {
		if !isName(h) {
			return errors.New("a helper's name is not a name")
		}
	}
	var plan protocol.Plan
	decoder := json.NewDecoder(bytes.NewReader(kept.Plan))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(&plan); err != nil || decoder.More() {
		return fmt.Errorf("malformed plan: %v", err)
	}
	return checkPlan(&plan, started)
}

func checkPlan(plan *protocol.Plan, started []protocol.NativeUnitSource) error {
	functions := map[string]bool{}
	for _, f := range plan.Functions {
		if !isName(f) || functions[f] {
			return errors.New("a function's name is not a name, or is given twice")
		}
		functions[f] = true
	}
	units := map[string]string{}
	for _, u := range plan.Units {
		if !functions[u.Name] || units[u.Name] != "" || !utf8.ValidString(u.Source) || u.Source == "" ||
			strings.IndexByte(u.Source, 0) >= 0 {
			return fmt.Errorf("unit %.64q is not a function of the plan, or not text", u.Name)
		}
		for _, n := range u.Names {
			if !functions[n] {
				return fmt.Errorf("unit %.64q contains no function of the plan", u.Name)
			}
		}
		for _, n := range u.Instances {
			if !isName(n) {
				return fmt.Errorf("unit %.64q keeps an instance that is not a name", u.Name)
			}
		}
		units[u.Name] = u.Source
	}
	for name := range plan.Reasons {
		if !functions[name] {
			return fmt.Errorf("a reason for %.64q, not a function of the plan", name)
		}
	}
	for _, u := range started {
		if source, ok := units[u.Name]; !ok || source != u.Source {
			return fmt.Errorf("the start hands over %.64q, which the plan does not", u.Name)
		}
	}
	return nil
}

// isName: a Python identifier may be any text; this is what the plan may
// hold for one (no NUL, at most 1 KiB).
func isName(s string) bool {
	return s != "" && len(s) <= 1024 && utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}
