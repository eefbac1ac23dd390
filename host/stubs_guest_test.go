package host_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/spine-sandbox/spine/host"
)

type searchArgs struct {
	Query string   `json:"query" jsonschema:"description=The text to find."`
	Limit int      `json:"limit,omitempty" jsonschema:"default=10"`
	Lang  string   `json:"lang,omitempty" jsonschema:"enum=en,enum=fr"`
	Tags  []string `json:"tags,omitempty"`
}

type hit struct {
	Title string  `json:"title"`
	Score float64 `json:"score"`
}

func searchTool() host.Tool {
	return host.Func("search", func(_ context.Context, a searchArgs) ([]hit, error) { return nil, nil },
		host.Describe("Search the index."), host.Speculative())
}

// In the guest, inspect.signature(tool) and help(tool) show the signature
// and docstring Engine.Stubs renders, in both isolation modes.
func TestToolSignatureInTheGuest(t *testing.T) {
	forEachIsolation(t, func(t *testing.T, m isolationMode) {
		e := m.engine(t, host.WithTools(searchTool()))
		stubs := e.Stubs()
		want := `(*, query: str, limit: int = 10, lang: Literal["en", "fr"] = ..., tags: list[str] = ...) -> list[SearchResultItem]`
		if !strings.Contains(stubs, "def search"+want+":") {
			t.Fatalf("stubs lack %s:\n%s", want, stubs)
		}
		source := "import inspect, io, contextlib\nbuf = io.StringIO()\nwith contextlib.redirect_stdout(buf):\n    help(search)\n" +
			"result = [str(inspect.signature(search)), search.__doc__, 'Search the index.' in buf.getvalue(), str(inspect.signature(echo))]"
		resp, err := e.Execute(context.Background(), host.Request{Source: source})
		if err != nil {
			t.Fatalf("%v: %s", err, errorOf(resp))
		}
		var got []any
		if err := json.Unmarshal(resp.Value, &got); err != nil {
			t.Fatal(err)
		}
		if got[0] != want || got[1] != "Search the index.\n\nArgs:\n    query: The text to find." || got[2] != true ||
			got[3] != "(**kwargs: Any) -> Any" {
			t.Fatalf("guest shows %q", got)
		}
	})
}
