package host_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

// corpusCase is one program of tests/programs with the expectation written in
// its header (see tests/programs/corpus.py for the format).
type corpusCase struct {
	name, source, err, stdout string
	inputs, value             json.RawMessage
	emitted                   []json.RawMessage
}

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	paths, _ := filepath.Glob("../tests/programs/*.py")
	var cases []corpusCase
	for _, path := range paths {
		base := filepath.Base(path)
		if base == "corpus.py" || strings.HasPrefix(base, "_") {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		c := corpusCase{name: base, source: string(data), inputs: json.RawMessage("{}")}
		scanner := bufio.NewScanner(bytes.NewReader(data))
		for scanner.Scan() {
			key, text, ok := strings.Cut(strings.TrimPrefix(scanner.Text(), "# "), ": ")
			if !ok || !strings.HasPrefix(scanner.Text(), "# ") {
				break
			}
			switch key {
			case "inputs":
				c.inputs = json.RawMessage(text)
			case "value":
				c.value = json.RawMessage(text)
			case "error":
				c.err = text
			case "stdout":
				if err := json.Unmarshal([]byte(text), &c.stdout); err != nil {
					t.Fatalf("%s: stdout header: %v", base, err)
				}
			case "emitted":
				if err := json.Unmarshal([]byte(text), &c.emitted); err != nil {
					t.Fatalf("%s: emitted header: %v", base, err)
				}
			default:
				goto done
			}
		}
	done:
		cases = append(cases, c)
	}
	if len(cases) < 60 {
		t.Fatalf("corpus has %d programs, want at least 60", len(cases))
	}
	return cases
}

// normalJSON decodes JSON with every number as an exact rational, so 1e16
// and 1e+16 compare equal and 2**70 keeps every digit.
func normalJSON(raw json.RawMessage) (any, error) {
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	var v any
	if err := decoder.Decode(&v); err != nil {
		return nil, err
	}
	return normalize(v), nil
}

func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		r, ok := new(big.Rat).SetString(string(x))
		if !ok {
			return string(x)
		}
		kind := "int"
		if strings.ContainsAny(string(x), ".eE") {
			kind = "float"
		}
		return kind + ":" + r.RatString()
	case []any:
		for i := range x {
			x[i] = normalize(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalize(x[k])
		}
	}
	return v
}

func jsonEqual(a, b json.RawMessage) bool {
	x, err1 := normalJSON(a)
	y, err2 := normalJSON(b)
	return err1 == nil && err2 == nil && reflect.DeepEqual(x, y)
}

// describe is what the differential suite compares: value (unless there is
// an error), error, stdout and the emitted sequence, numbers normalised.
func describe(value json.RawMessage, err, stdout string, emitted []json.RawMessage) string {
	shown := "-"
	if err == "" {
		v, _ := normalJSON(value)
		shown = fmt.Sprint(v)
	}
	var values []string
	for _, e := range emitted {
		v, _ := normalJSON(e)
		values = append(values, fmt.Sprint(v))
	}
	return fmt.Sprintf("value=%s error=%q stdout=%q emitted=%v", shown, err, stdout, values)
}

func outcome(resp *host.Response) string {
	if resp == nil {
		return "<no response>"
	}
	return describe(resp.Value, resp.Error, resp.Stdout, resp.Emitted)
}

func expected(c corpusCase) string { return describe(c.value, c.err, c.stdout, c.emitted) }

func TestCorpusPlainAndPLMGiveTheExpectedOutcome(t *testing.T) {
	t.Run("inproc", func(t *testing.T) { corpusPlainAndPLM(t, newEngine(t)) })
	t.Run("sandbox", func(t *testing.T) { corpusPlainAndPLM(t, newSandboxEngine(t)) })
}

func corpusPlainAndPLM(t *testing.T, e *host.Engine) {
	transformed := 0
	for _, c := range loadCorpus(t) {
		for _, plm := range []bool{false, true} {
			resp, _ := e.Execute(context.Background(), host.Request{Source: c.source, Inputs: c.inputs, PLM: plm})
			if got, want := outcome(resp), expected(c); got != want {
				t.Errorf("%s (plm=%v):\n got  %s\n want %s", c.name, plm, got, want)
				continue
			}
			if plm && resp.Transformed != "" {
				transformed++
			}
			for _, call := range resp.Calls {
				if call.Tool == "emit" && call.Early {
					t.Errorf("%s: the effectful emit was started early", c.name)
				}
			}
		}
	}
	if transformed < 40 {
		t.Errorf("PLM transformed only %d programs of the corpus", transformed)
	}
}

// splitOffsets is every byte offset of a short program, 200 seeded random
// ones of a long one.
func splitOffsets(source string, rng *rand.Rand) []int {
	if len(source) <= 400 {
		offsets := make([]int, len(source)+1)
		for i := range offsets {
			offsets[i] = i
		}
		return offsets
	}
	seen := map[int]bool{0: true, len(source): true}
	for len(seen) < 202 {
		seen[rng.Intn(len(source)+1)] = true
	}
	offsets := make([]int, 0, len(seen))
	for o := range seen {
		offsets = append(offsets, o)
	}
	sort.Ints(offsets)
	return offsets
}

func TestCorpusStreamedAtEveryOffsetMatchesPlain(t *testing.T) {
	e := newEngine(t)
	rng := rand.New(rand.NewSource(1))
	type job struct {
		c      corpusCase
		offset int
	}
	jobs := make(chan job)
	var mu sync.Mutex
	failures := map[string]int{}
	claimed := 0
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				s, err := e.Stream(context.Background(), host.Request{Inputs: j.c.inputs})
				if err != nil {
					t.Errorf("%s: Stream: %v", j.c.name, err)
					continue
				}
				src := []byte(j.c.source)
				if s.Feed(src[:j.offset]) != nil || s.Feed(src[j.offset:]) != nil {
					t.Errorf("%s: Feed failed", j.c.name)
				}
				resp, _ := s.Finish()
				if resp != nil {
					for _, call := range resp.Calls {
						if call.Stream && call.Claimed {
							mu.Lock()
							claimed++
							mu.Unlock()
						}
					}
				}
				if got, want := outcome(resp), expected(j.c); got != want {
					mu.Lock()
					if failures[j.c.name]++; failures[j.c.name] == 1 {
						t.Errorf("%s split at %d:\n got  %s\n want %s", j.c.name, j.offset, got, want)
					}
					mu.Unlock()
				}
			}
		}()
	}
	total := 0
	for _, c := range loadCorpus(t) {
		for _, offset := range splitOffsets(c.source, rng) {
			jobs <- job{c, offset}
			total++
		}
	}
	close(jobs)
	wg.Wait()
	if total < 5000 {
		t.Fatalf("only %d splits were run", total)
	}
	// The stream really started calls that the final execution then used.
	if claimed < total/4 {
		t.Fatalf("only %d calls started during %d streams were claimed", claimed, total)
	}
	t.Logf("%d streamed executions, %d stream-started calls claimed", total, claimed)
}
