package agenttools

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
)

// CriticalPath is the number of calls on the longest chain of calls of a
// plain run that really depend on each other: the least number of tool
// latencies any schedule that keeps the program's meaning must wait for.
//
// log is the world's log of a plain run (calls in program order); known is
// the text the program has before any call (its code and its inputs).
// Call j depends on an earlier call i when
//
//   - j is effectful: an effect runs when the program reaches it, after
//     every earlier call (effects keep their order), or
//   - i is effectful and writes what j reads (by the tools' declared Reads
//     and Writes, nil meaning everything): a read after a write must see
//     it, a read of something else need not wait, or
//   - j's arguments carry data from i's result: they share a word that the
//     program did not know and that i's own arguments do not hold (a result
//     that echoes its request, a page's url or an order's id, adds nothing). A word is a run of 3 or more letters or digits,
//     lower-cased, of a string value, an object key (results only: an
//     argument's keys are keyword names) or a number; a failed call's
//     result is its error message; known words are the words of known.
//
// Words rather than whole values, so that data reshaped by ordinary string
// handling still counts: "config/" from list_dir becomes path="/config",
// "Population: 2102650" becomes an int, a URL is cut from a page. Shorter
// words (counts, flags, page numbers) match by accident too often.
//
// What this misses: data reshaped beyond recognition (arithmetic on a
// result, a hash of it), and control dependencies (a call made only because
// a result said so, with arguments the program knew): a speculative engine
// may start those before the decision and drop them if unused. What it adds
// by accident: an unknown word that an unrelated later argument happens to
// share. So the ideal is an estimate; CriticalPathDeps lists the edges for
// review.
func CriticalPath(log []Entry, known string) int {
	longest := 0
	for _, n := range chainLengths(log, known) {
		longest = max(longest, n)
	}
	return longest
}

// CriticalPathDeps is, for each call, the earlier calls it depends on.
func CriticalPathDeps(log []Entry, known string) [][]int {
	knownWords := map[string]bool{}
	for _, w := range wordsOf(known) {
		knownWords[w] = true
	}
	fresh := func(words []string) map[string]bool {
		out := map[string]bool{}
		for _, w := range words {
			if !knownWords[w] {
				out[w] = true
			}
		}
		return out
	}
	results := make([]map[string]bool, len(log))
	args := make([]map[string]bool, len(log))
	for i, e := range log {
		if e.Error != "" {
			results[i] = fresh(wordsOf(e.Error))
		} else {
			results[i] = fresh(jsonWords(e.Result, true))
		}
		// What a result echoes of its own request (a fetched page's url, an
		// order's id) is not new data.
		for _, w := range jsonWords(e.Args, true) {
			delete(results[i], w)
		}
		args[i] = fresh(jsonWords(e.Args, false))
	}
	deps := make([][]int, len(log))
	for j := range log {
		for i := 0; i < j; i++ {
			if log[j].Effectful || (log[i].Effectful && conflict(log[i].Writes, log[j].Reads)) || shares(results[i], args[j]) {
				deps[j] = append(deps[j], i)
			}
		}
	}
	return deps
}

func chainLengths(log []Entry, known string) []int {
	deps := CriticalPathDeps(log, known)
	length := make([]int, len(log))
	for j := range log {
		length[j] = 1
		for _, i := range deps[j] {
			length[j] = max(length[j], length[i]+1)
		}
	}
	return length
}

// conflict says whether a write of writes can change a read of reads.
func conflict(writes, reads []string) bool {
	if writes == nil || reads == nil {
		return true
	}
	for _, w := range writes {
		for _, r := range reads {
			if w == r {
				return true
			}
		}
	}
	return false
}

func shares(a, b map[string]bool) bool {
	for w := range b {
		if a[w] {
			return true
		}
	}
	return false
}

const minWord = 3

// wordsOf splits text into lower-cased runs of letters and digits of at
// least minWord characters.
func wordsOf(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(w) >= minWord {
			out = append(out, w)
		}
	}
	return out
}

// jsonWords lists the words of a JSON value's strings and numbers, and of
// its object keys when keys is set.
func jsonWords(raw json.RawMessage, keys bool) []string {
	if len(raw) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, wordsOf(x)...)
		case json.Number:
			out = append(out, wordsOf(x.String())...)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				if keys {
					out = append(out, wordsOf(k)...)
				}
				walk(e)
			}
		}
	}
	walk(v)
	return out
}
