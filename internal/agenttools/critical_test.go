package agenttools

import (
	"encoding/json"
	"testing"
)

func entry(tool, args, result string, effectful bool) Entry {
	e := Entry{Tool: tool, Args: json.RawMessage(args), Effectful: effectful}
	if result != "" {
		e.Result = json.RawMessage(result)
	}
	return e
}

func TestCriticalPathIndependentReadsAreOneStep(t *testing.T) {
	log := []Entry{
		entry("get_weather", `{"city":"Paris"}`, `{"city":"Paris","temp_c":14}`, false),
		entry("get_weather", `{"city":"Tokyo"}`, `{"city":"Tokyo","temp_c":19}`, false),
		entry("get_weather", `{"city":"Lima"}`, `{"city":"Lima","temp_c":22}`, false),
	}
	if n := CriticalPath(log, `for c in ["Paris", "Tokyo", "Lima"]: get_weather(city=c)`); n != 1 {
		t.Fatalf("critical path %d, want 1", n)
	}
}

func TestCriticalPathFollowsDataFromAResult(t *testing.T) {
	log := []Entry{
		entry("search", `{"query":"seine"}`, `[{"url":"https://en.wikipedia.org/wiki/Seine"}]`, false),
		entry("fetch", `{"url":"https://en.wikipedia.org/wiki/Seine"}`, `{"text":"The Seine is 777 km long. It flows through Paris."}`, false),
		entry("search", `{"query":"paris"}`, `[]`, false), // extracted from the page: not a constant
		entry("search", `{"query":"rust"}`, `[]`, false),  // a constant of the program
	}
	deps := CriticalPathDeps(log, `hits = search(query="seine") ... search(query="rust")`)
	if len(deps[1]) != 1 || deps[1][0] != 0 || len(deps[2]) != 1 || deps[2][0] != 1 || len(deps[3]) != 0 {
		t.Fatalf("deps %v", deps)
	}
	if n := CriticalPath(log, `hits = search(query="seine") ... search(query="rust")`); n != 3 {
		t.Fatalf("critical path %d, want 3", n)
	}
}

func TestCriticalPathKeepsEffectsInOrder(t *testing.T) {
	log := []Entry{
		entry("kv_get", `{"key":"a"}`, `1`, false),
		entry("kv_put", `{"key":"a","value":2}`, `{"created":false}`, true), // Writes nil: everything
		entry("kv_get", `{"key":"a"}`, `2`, false),
		entry("kv_get", `{"key":"b"}`, `null`, false),
	}
	// The put follows the first read; both later reads follow the put.
	if n := CriticalPath(log, `kv_get(key="a") kv_put(key="a", value=2) kv_get(key="a") kv_get(key="b")`); n != 3 {
		t.Fatalf("critical path %d, want 3", n)
	}
}

func TestCriticalPathSeesDataReshapedByStringHandling(t *testing.T) {
	log := []Entry{
		entry("list_dir", `{"path":"/"}`, `["config/","data/"]`, false),
		entry("list_dir", `{"path":"/config"}`, `["settings.json"]`, false),
		entry("list_dir", `{"path":"/data"}`, `["sales.csv"]`, false),
		entry("read_file", `{"path":"/config/settings.json"}`, `"{}"`, false),
	}
	code := `def walk(path):
    for entry in list_dir(path=path):
        full = path.rstrip("/") + "/" + entry.rstrip("/")`
	deps := CriticalPathDeps(log, code)
	if len(deps[1]) != 1 || len(deps[2]) != 1 || len(deps[3]) != 2 {
		t.Fatalf("deps %v", deps)
	}
	if n := CriticalPath(log, code); n != 3 {
		t.Fatalf("critical path %d, want 3", n)
	}
}

func TestCriticalPathLetsAReadOfAnotherResourcePassAnEffect(t *testing.T) {
	write := entry("write_file", `{"path":"/a","content":"x"}`, `{"size":1}`, true)
	write.Writes = []string{"files"}
	readFiles := entry("read_file", `{"path":"/a"}`, `"x"`, false)
	readFiles.Reads = []string{"files"}
	readOrders := entry("get_order", `{"order_id":"ORD-1"}`, `{"status":"processing"}`, false)
	readOrders.Reads = []string{"orders"}
	undeclared := entry("lookup", `{"key":"k"}`, `1`, false) // Reads nil: everything
	deps := CriticalPathDeps([]Entry{write, readFiles, readOrders, undeclared}, "")
	if len(deps[1]) != 1 || len(deps[2]) != 0 || len(deps[3]) != 1 {
		t.Fatalf("deps %v", deps)
	}
}
