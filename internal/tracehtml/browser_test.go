package tracehtml

import (
	"context"
	"encoding/json"
	"html"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/demotools"
	"github.com/spine-sandbox/spine/host"
)

// The page as a real browser draws it: headless Chromium (Debian's, which
// scripts/setup.sh installs) loads the page, runs its script and lays it
// out; the test reads the DOM it dumps and checks that every bar, chunk mark
// and marked line is where the trace says, in the browser's own pixels.
// A screenshot is kept (under $SPINE_ARTIFACTS, else build/test-artifacts).

// streamedProgram arrives line by line: its speculative calls start while
// it streams in, one fails and is caught, and the effectful one runs when
// the program reaches it.
var streamedProgram = []string{
	"a = lookup(key=1)\n",
	"b = sleep(ms=40, value=2)\n",
	"try:\n    fail(message='boom')\nexcept RuntimeError:\n    pass\n",
	"n = emit(value=a + b)\n",
	"result = {'a': a, 'b': b, 'n': n}\n",
}

func streamedRun(t *testing.T) (string, *host.Response) {
	t.Helper()
	engine, err := host.New(host.WithTools(demotools.Tools()...))
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	stream, err := engine.Stream(context.Background(), host.Request{Name: "streamed.py"})
	if err != nil {
		t.Fatal(err)
	}
	for i, chunk := range streamedProgram {
		if i > 0 {
			time.Sleep(15 * time.Millisecond)
		}
		if err := stream.Feed([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := stream.Finish()
	if err != nil {
		t.Fatalf("%v (%+v)", err, resp)
	}
	if string(resp.Value) != `{"a": 7, "b": 2, "n": 1}` || len(resp.Chunks) != len(streamedProgram) {
		t.Fatalf("value %s, %d chunks", resp.Value, len(resp.Chunks))
	}
	return strings.Join(streamedProgram, ""), resp
}

// hostile is program text that would inject markup if the page ever wrote
// it as HTML: it must show as text.
const hostile = "# </script><img id=injected src=x onerror=alert(1)>\n"

// everyKind is a trace with each kind of call the legend names.
func everyKind() (string, *host.Response) {
	ms := time.Millisecond
	source := "a = get(k=1)\nb = get(k=2)\nput(k=1)\nc = get(k=3)\nd = nope(k=4)\nresult = [a, b, c, __proto__()]\n" + hostile
	return source, &host.Response{Status: host.StatusError, Value: json.RawMessage("null"), Error: "RuntimeError: nope", Line: 5,
		Elapsed: 90 * ms, Calls: []host.Call{
			{Tool: "get", Args: json.RawMessage(`{"k":1}`), Start: 0, End: 20 * ms, Early: true, Claimed: true},
			{Tool: "get", Args: json.RawMessage(`{"k":2}`), Start: 1 * ms, End: 30 * ms, Early: true, Mismatch: true},
			{Tool: "get", Args: json.RawMessage(`{"k":3}`), Start: 2 * ms, End: 35 * ms, Early: true, Stale: true, Error: "cancelled"},
			{Tool: "put", Args: json.RawMessage(`{"k":1}`), Start: 36 * ms, End: 60 * ms},
			{Tool: "nope", Args: json.RawMessage(`"{\"k\": 4}"`), Start: 61 * ms, End: 61 * ms, ArgsTruncated: true, Error: "unknown tool"},
			// A tool named like an Object property must not confuse the page's lookups.
			{Tool: "__proto__", Args: json.RawMessage(`{}`), Start: 62 * ms, End: 63 * ms},
			// And one whose line the page cannot find (its name is a property of every object).
			{Tool: "constructor", Args: json.RawMessage(`{}`), Start: 63 * ms, End: 64 * ms},
		}}
}

func TestPageInHeadlessChromium(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("the trace page's test needs Debian's chromium: run scripts/setup.sh (make setup)")
	}
	artifacts := artifactDir(t)
	source, resp := streamedRun(t)
	checkPage(t, browser, artifacts, "streamed", source, resp)
	source, resp = everyKind()
	checkPage(t, browser, artifacts, "every-kind", source, resp)
}

func checkPage(t *testing.T, browser, artifacts, name, source string, resp *host.Response) {
	page := filepath.Join(artifacts, name+".html")
	file, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := Render(file, Page{Title: name + ".py", Source: source, Response: resp}); err != nil {
		t.Fatal(err)
	}
	file.Close()
	dom := chromium(t, browser, "--dump-dom", "file://"+page)
	if !strings.Contains(dom, `data-rendered="true"`) {
		t.Fatalf("%s: the page's script did not finish:\n%.2000s", name, dom)
	}
	width := attrFloat(t, dom, `id="waterfall" data-width="([0-9.]+)"`)
	total := attrFloat(t, dom, `data-total-ms="([0-9.e-]+)"`)
	runStart, wantTotal := axis(resp)
	if width < 100 || math.Abs(total-wantTotal) > 1e-9 {
		t.Fatalf("%s: track %v px, axis %v ms (want %v)", name, width, total, wantTotal)
	}
	x := func(offset float64) float64 { return offset / total * width }
	near := func(what string, got, want float64) {
		if math.Abs(got-want) > 1 {
			t.Errorf("%s: %s at %.2f px, want %.2f", name, what, got, want)
		}
	}

	bars := elements(dom, `<div class="bar `, "data-index")
	if len(bars) != len(resp.Calls) {
		t.Fatalf("%s: %d bars for %d calls", name, len(bars), len(resp.Calls))
	}
	for _, bar := range bars {
		i, _ := strconv.Atoi(bar["data-index"])
		c := resp.Calls[i]
		if bar["data-tool"] != c.Tool || bar["class"] != "bar "+strings.Join(kindsOf(c), " ") {
			t.Errorf("%s: bar %d is %q %q, want %q %q", name, i, bar["data-tool"], bar["class"], c.Tool, kindsOf(c))
		}
		start, end := ms(c.Start), ms(c.End)
		near("start of bar "+bar["data-index"], float(t, bar["data-x"]), x(start))
		near("width of bar "+bar["data-index"], float(t, bar["data-w"]), max(x(end)-x(start), 3))
	}

	marks := elements(dom, `<div class="chunk"`, "data-index")
	if len(marks) != len(resp.Chunks) {
		t.Fatalf("%s: %d chunk marks for %d chunks", name, len(marks), len(resp.Chunks))
	}
	for _, mark := range marks {
		i, _ := strconv.Atoi(mark["data-index"])
		near("chunk "+mark["data-index"], float(t, mark["data-x"]), x(ms(resp.Chunks[i].At)))
	}
	runs := elements(dom, `<div class="bar run"`, "data-x")
	if len(runs) != 1 {
		t.Fatalf("%s: %d bars for the program's run", name, len(runs))
	}
	run := runs[0]
	near("the program's run", float(t, run["data-x"]), x(runStart))
	near("the program's run's end", float(t, run["data-x"])+float(t, run["data-w"]), x(runStart+ms(resp.Elapsed)))

	// Each call's line is marked with the call's number.
	marked := map[int][]string{}
	for _, m := range regexp.MustCompile(`class="line called[^"]*" id="line-(\d+)" data-line="\d+" data-calls="([^"]*)"`).FindAllStringSubmatch(dom, -1) {
		line, _ := strconv.Atoi(m[1])
		marked[line] = strings.Fields(m[2])
	}
	sites := callSites(source, map[string]bool{"lookup": true, "sleep": true, "fail": true, "emit": true, "get": true, "put": true, "nope": true, "__proto__": true})
	for i, c := range resp.Calls {
		for _, line := range sites[c.Tool] {
			if !contains(marked[line], strconv.Itoa(i+1)) {
				t.Errorf("%s: line %d does not mark call #%d (%s): %v", name, line, i+1, c.Tool, marked[line])
			}
		}
		if len(sites[c.Tool]) == 0 && c.Tool != "constructor" {
			t.Errorf("%s: no line found for %s", name, c.Tool)
		}
	}
	if resp.Error != "" && !strings.Contains(dom, `class="line raised" id="line-`+strconv.Itoa(resp.Line)+`"`) &&
		!strings.Contains(dom, `class="line called raised" id="line-`+strconv.Itoa(resp.Line)+`"`) {
		t.Errorf("%s: the line that raised (%d) is not marked", name, resp.Line)
	}

	if strings.Contains(source, hostile) && (strings.Contains(dom, `id="injected"`) || !strings.Contains(dom, "# &lt;/script&gt;&lt;img id=injected")) {
		t.Errorf("%s: the program's text was taken for markup", name)
	}

	shot := filepath.Join(artifacts, name+".png")
	chromium(t, browser, "--window-size=1200,900", "--screenshot="+shot, "file://"+page)
	if info, err := os.Stat(shot); err != nil || info.Size() < 10_000 {
		t.Fatalf("%s: no screenshot: %v", name, err)
	}
	t.Logf("%s: page %s, screenshot %s", name, page, shot)
}

// kindsOf is what the legend calls a call, in the page's order.
func kindsOf(c host.Call) []string {
	var k []string
	if c.ArgsTruncated {
		k = append(k, "refused")
	} else if c.Error != "" {
		k = append(k, "error")
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{c.Early, "early"}, {c.Stream, "stream"}, {c.Claimed, "claimed"}, {c.Mismatch, "mismatch"}, {c.Stale, "stale"}} {
		if f.on {
			k = append(k, f.name)
		}
	}
	if len(k) == 0 {
		k = append(k, "plain")
	}
	return k
}

func chromium(t *testing.T, browser string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	// --no-sandbox: Chromium's own sandbox needs user namespaces or a setuid
	// helper a root test container may lack; the page is our own.
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir=" + t.TempDir()}
	out, err := exec.CommandContext(ctx, browser, append(base, args...)...).Output()
	if err != nil {
		t.Fatalf("chromium %v: %v", args, err)
	}
	return string(out)
}

// elements are the attributes of each element of dom whose start tag
// begins with prefix and has the attribute named must.
func elements(dom, prefix, must string) []map[string]string {
	attribute := regexp.MustCompile(`^\s+([a-z-]+)="([^"]*)"`)
	var found []map[string]string
	for rest := dom; ; {
		i := strings.Index(rest, prefix)
		if i < 0 {
			return found
		}
		rest = rest[i+len("<div"):]
		attrs := map[string]string{}
		for {
			m := attribute.FindStringSubmatch(rest)
			if m == nil {
				break
			}
			attrs[m[1]] = html.UnescapeString(m[2])
			rest = rest[len(m[0]):]
		}
		if _, ok := attrs[must]; ok {
			found = append(found, attrs)
		}
	}
}

func artifactDir(t *testing.T) string {
	dir := os.Getenv("SPINE_ARTIFACTS")
	if dir == "" {
		root, err := filepath.Abs("../..")
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(root, "build", "test-artifacts")
	}
	dir = filepath.Join(dir, "tracehtml")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func attrFloat(t *testing.T, dom, pattern string) float64 {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("no %s in the page", pattern)
	}
	return float(t, m[1])
}

func float(t *testing.T, text string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
