package keptplan

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/guest"
	"github.com/spine-sandbox/spine/internal/guestcache"
	"github.com/spine-sandbox/spine/internal/protocol"
)

const source = "def square(x: int) -> int:\n    return x * x\n\ndef shout(s):\n    return s.upper()\n\nresult = square(3)\n"

var unit = protocol.NativeUnitSource{Name: "square", Source: "def square(x: int) -> int:\n    return x * x\n"}

// made is a Compiled in the shape bootstrap._compiled_form gives.
func made() *protocol.Compiled {
	plan, _ := json.Marshal(protocol.Plan{Functions: []string{"square", "shout"},
		Units:   []protocol.PlanUnit{{Name: unit.Name, Names: []string{"square"}, Source: unit.Source, Lines: [][2]int{{1, 1}}}},
		Reasons: map[string]string{"shout": "parameter s has no type annotation"}})
	return &protocol.Compiled{Code: base64.StdEncoding.EncodeToString([]byte("\xe3marshalled code")), Helpers: []string{},
		Python: "3.11.2 (main)", Plan: plan}
}

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestAKeptPlanLoadsInTheNextProcessUnderItsKeyOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plans")
	s := open(t, dir)
	k := s.KeyOf(source, []byte(`[{"name":"lookup"}]`), false, 64)
	if err := s.Keep(k, source, made(), []protocol.NativeUnitSource{unit}); err != nil {
		t.Fatal(err)
	}
	next := open(t, dir) // nothing in memory: read from disk
	var got protocol.Compiled
	if err := json.Unmarshal(next.Load(k, source), &got); err != nil || got.Code != made().Code ||
		string(got.Plan) != string(made().Plan) || got.Python != made().Python {
		t.Fatalf("Load: %v, %+v", err, got.Python)
	}
	if other := next.Load(next.KeyOf(source, []byte(`[{"name":"lookup"}]`), true, 64), source); other != nil {
		t.Fatal("another key loaded the entry")
	}
}

// Everything the plan or its code depends on changes the key.
func TestTheKeyNamesSourceToolsPLMFanoutAndGuestSources(t *testing.T) {
	s := open(t, "")
	manifest := []byte(`[{"name":"lookup"}]`)
	base := s.KeyOf(source, manifest, false, 64)
	other := &Store{mem: map[Key]json.RawMessage{}}
	other.guests = guestcache.ModulesDigest(append(guest.Modules(), guest.Module{Name: "hot", Source: []byte("# edited")}))
	for name, k := range map[string]Key{
		"source":        s.KeyOf(source+"\n", manifest, false, 64),
		"tool names":    s.KeyOf(source, []byte(`[{"name":"square"}]`), false, 64),
		"PLM":           s.KeyOf(source, manifest, true, 64),
		"fanout":        s.KeyOf(source, manifest, false, 65),
		"guest sources": other.KeyOf(source, manifest, false, 64),
	} {
		if k == base {
			t.Errorf("a different %s gives the same key", name)
		}
	}
	if s.KeyOf(source, manifest, false, 64) != base {
		t.Fatal("the key is not a function of its inputs")
	}
}

func TestADiskEntryThatFailsACheckIsNeverLoaded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plans")
	s := open(t, dir)
	k := s.KeyOf(source, nil, false, 64)
	if err := s.Keep(k, source, made(), nil); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, hexKey(k))
	whole, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	disk, _ := guestcache.Open(dir)
	for name, spoil := range map[string]func(){
		"truncated": func() { os.WriteFile(file, whole[:len(whole)-3], 0o600) },
		"a byte flipped": func() {
			b := append([]byte{}, whole...)
			b[len(b)-2] ^= 1
			os.WriteFile(file, b, 0o600)
		},
		"not JSON":      func() { disk.StoreEntry(k, []byte(`{"code":`)) },
		"not an object": func() { disk.StoreEntry(k, []byte(`["code"]`)) },
		"past its bound": func() {
			disk.StoreEntry(k, []byte(`{"code":"`+strings.Repeat("A", maxEntry(source))+`"}`))
		},
	} {
		spoil()
		if got := open(t, dir).Load(k, source); got != nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

// What a guest hands over is checked whole before it is kept.
func TestCheckRefusesWhatNoGuestMakesOfTheProgram(t *testing.T) {
	cases := map[string]struct {
		spoil   func(c *protocol.Compiled)
		started []protocol.NativeUnitSource
	}{
		"a start of a unit the plan lacks": {func(*protocol.Compiled) {}, []protocol.NativeUnitSource{{Name: "shout", Source: "x"}}},
		"a start of another source":        {func(*protocol.Compiled) {}, []protocol.NativeUnitSource{{Name: "square", Source: "other"}}},
		"code that is not base64":          {func(c *protocol.Compiled) { c.Code = "***" }, nil},
		"a plan larger than its bound": {func(c *protocol.Compiled) {
			c.Plan = json.RawMessage(`{"functions":["` + strings.Repeat("f", MaxSize(source)) + `"],"units":[],"reasons":{}}`)
		}, nil},
		"a reason for no function": {func(c *protocol.Compiled) {
			c.Plan = json.RawMessage(`{"functions":[],"units":[],"reasons":{"f":"x"}}`)
		}, nil},
		"a helper with a NUL": {func(c *protocol.Compiled) { c.Helpers = []string{"a\x00"} }, nil},
		"no Python version":   {func(c *protocol.Compiled) { c.Python = "" }, nil},
		"two plans in a row":  {func(c *protocol.Compiled) { c.Plan = append(append(json.RawMessage{}, c.Plan...), c.Plan...) }, nil},
	}
	if err := Check(source, made(), []protocol.NativeUnitSource{unit}); err != nil {
		t.Fatalf("the plan itself: %v", err)
	}
	for name, c := range cases {
		kept := made()
		c.spoil(kept)
		if err := Check(source, kept, c.started); err == nil {
			t.Errorf("%s: accepted", name)
		}
		s := open(t, filepath.Join(t.TempDir(), "plans"))
		k := s.KeyOf(source, nil, false, 64)
		if err := s.Keep(k, source, kept, c.started); err == nil || s.Load(k, source) != nil {
			t.Errorf("%s: kept", name)
		}
	}
}

func TestTheDirectoryStaysBounded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plans")
	s := open(t, dir)
	defer func(was int) { diskEntries = was }(diskEntries)
	diskEntries = 8
	for i := 0; i < memEntries+3; i++ {
		if err := s.Keep(s.KeyOf(source, nil, false, i), source, made(), nil); err != nil {
			t.Fatal(err)
		}
	}
	names, _ := os.ReadDir(dir)
	if len(names) > diskEntries {
		t.Fatalf("%d entries, bound %d", len(names), diskEntries)
	}
	if len(s.mem) > memEntries || len(s.order) != len(s.mem) {
		t.Fatalf("%d in memory (%d in order), bound %d", len(s.mem), len(s.order), memEntries)
	}
}

func hexKey(k Key) string { return fmt.Sprintf("%x", k[:]) }

// HasUnits reads what Keep wrote: the guest's plan as json.dumps spaces it,
// compacted, with or without units, whatever a unit's source holds.
func TestHasUnitsTellsAPlanWithUnitsFromOneWithout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plans")
	s := open(t, dir)
	tricky := protocol.NativeUnitSource{Name: "square", Source: "def square(x: int) -> int:\n    return x * x  # \"units\":[]\n"}
	withUnits := made()
	withUnits.Plan = json.RawMessage(`{"functions": ["square"], "reasons": {}, "units": [{"name": "square", ` +
		`"names": ["square"], "source": ` + mustJSON(t, tricky.Source) + `, "lines": [[1, 1]], "instances": []}]}`)
	without := made()
	without.Plan = json.RawMessage(`{"functions": ["shout"], "reasons": {"shout": "parameter s has no type annotation"}, "units": []}`)
	for _, c := range []struct {
		name    string
		kept    *protocol.Compiled
		started []protocol.NativeUnitSource
		want    bool
	}{{"with a unit", withUnits, []protocol.NativeUnitSource{tricky}, true}, {"without", without, nil, false}} {
		k := s.KeyOf(source, []byte(c.name), false, 64)
		if err := s.Keep(k, source, c.kept, c.started); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := HasUnits(open(t, dir).Load(k, source)); got != c.want {
			t.Errorf("%s: HasUnits %v, want %v", c.name, got, c.want)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
