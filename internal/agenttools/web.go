package agenttools

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

type page struct {
	title, text string
	links       []string
}

// pages is the whole web the search and fetch tools know.
var pages = map[string]page{
	"https://docs.python.org/3/library/asyncio.html": {"asyncio - Asynchronous I/O",
		"asyncio is a library to write concurrent code using the async/await syntax. asyncio.gather runs awaitables concurrently. Python 3.11 added TaskGroup.",
		[]string{"https://docs.python.org/3/library/asyncio-task.html"}},
	"https://docs.python.org/3/library/asyncio-task.html": {"Coroutines and Tasks",
		"A TaskGroup is an asynchronous context manager holding a group of tasks. Added in Python 3.11. Use asyncio.timeout to bound waits.", nil},
	"https://go.dev/doc/tutorial/generics": {"Tutorial: Getting started with generics",
		"Go 1.18 added generics: functions and types with type parameters. Constraints are interfaces.",
		[]string{"https://go.dev/blog/intro-generics"}},
	"https://go.dev/blog/intro-generics": {"An Introduction To Generics",
		"Generics add type parameters, type sets and type inference to Go 1.18.", nil},
	"https://doc.rust-lang.org/book/ch04-01-what-is-ownership.html": {"What Is Ownership? - The Rust Programming Language",
		"Ownership is a set of rules that govern how a Rust program manages memory. Each value has one owner.", nil},
	"https://en.wikipedia.org/wiki/Paris": {"Paris - Wikipedia",
		"Paris is the capital of France. Population: 2102650. It lies on the Seine.",
		[]string{"https://en.wikipedia.org/wiki/Seine"}},
	"https://en.wikipedia.org/wiki/Seine": {"Seine - Wikipedia",
		"The Seine is a river in northern France, 777 km long. It flows through Paris into the English Channel.", nil},
	"https://en.wikipedia.org/wiki/Tokyo": {"Tokyo - Wikipedia",
		"Tokyo is the capital of Japan. Population: 14094034. It lies on Tokyo Bay.", nil},
	"https://en.wikipedia.org/wiki/Lima": {"Lima - Wikipedia",
		"Lima is the capital of Peru. Population: 10092000. It lies on the Pacific coast.", nil},
	"https://en.wikipedia.org/wiki/Canberra": {"Canberra - Wikipedia",
		"Canberra is the capital of Australia. Population: 467194. It lies on Lake Burley Griffin.", nil},
	"https://acme.example.com/policies/refunds": {"Refund policy",
		"Orders can be refunded within 30 days. Shipped orders must be returned first. Refunds take 5 business days.", nil},
	"https://acme.example.com/policies/shipping": {"Shipping policy",
		"Orders ship within 2 business days. Express shipping costs 15 dollars.", nil},
	"https://acme.example.com/releases/1.3.0": {"Acme 1.3.0 release notes",
		"Version 1.3.0 adds --dry-run and fixes a crash on empty directories (issue 101).",
		[]string{"https://acme.example.com/releases/1.2.0"}},
	"https://acme.example.com/releases/1.2.0": {"Acme 1.2.0 release notes",
		"Version 1.2.0 adds sync --delete and speeds up large trees (issue 103).", nil},
	"https://slow.example.com/report": {"Quarterly report",
		"Revenue grew 12 percent to 4.2 million. Costs fell 3 percent.", nil},
	"https://news.example.com/ai-agents": {"Agents that write code",
		"Code agents call tools from Python programs. Parallel tool calls cut latency.",
		[]string{"https://news.example.com/tool-calling", "https://news.example.com/missing-page"}},
	"https://news.example.com/tool-calling": {"Programmatic tool calling",
		"Programmatic tool calling lets a model run a loop of tool calls in one program.", nil},
}

// slowHost pages need a fetch timeout of at least slowSeconds.
const (
	slowHost    = "slow.example.com"
	slowSeconds = 10
)

var weather = map[string]map[string]any{
	"paris":    {"city": "Paris", "temp_c": 14, "condition": "cloudy"},
	"tokyo":    {"city": "Tokyo", "temp_c": 19, "condition": "sunny"},
	"lima":     {"city": "Lima", "temp_c": 22, "condition": "sunny"},
	"canberra": {"city": "Canberra", "temp_c": 9, "condition": "rain"},
	"oslo":     {"city": "Oslo", "temp_c": -3, "condition": "snow"},
}

var stocks = map[string]float64{"ACME": 123.45, "GLOBEX": 88.1, "INITECH": 15.75, "UMBRELLA": 301.2}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// search ranks pages by how many of the query's words their title and text
// contain (ties by URL), 3 results per page.
func search(query string, pageNo int) []map[string]any {
	type hit struct {
		url   string
		score int
	}
	var hits []hit
	for u, p := range pages {
		text := " " + strings.Join(words(p.title+" "+p.text), " ") + " "
		score := 0
		for _, w := range words(query) {
			if len(w) > 2 && strings.Contains(text, " "+w+" ") {
				score++
			}
		}
		if score > 0 {
			hits = append(hits, hit{u, score})
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].score != hits[j].score {
			return hits[i].score > hits[j].score
		}
		return hits[i].url < hits[j].url
	})
	out := []map[string]any{}
	for k := (pageNo - 1) * 3; k >= 0 && k < len(hits) && k < pageNo*3; k++ {
		p := pages[hits[k].url]
		snippet := p.text
		if len(snippet) > 60 {
			snippet = snippet[:60]
		}
		out = append(out, map[string]any{"title": p.title, "url": hits[k].url, "snippet": snippet})
	}
	return out
}

func webDefs() []def {
	return []def{
		{name: "search", description: "Search the web; return up to 3 results (title, url, snippet) per page.",
			schema: `{"type":"object","properties":{"query":{"type":"string","minLength":1},"page":{"type":"integer","minimum":1}},"required":["query"],"additionalProperties":false}`,
			run: func(_ *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					Query string
					Page  int
				}]("search", args)
				if err != nil {
					return nil, err
				}
				if in.Page == 0 {
					in.Page = 1
				}
				return search(in.Query, in.Page), nil
			}},
		{name: "fetch", description: "Fetch a URL; return url, title, text and links. timeout is in seconds (default 5).",
			schema: `{"type":"object","properties":{"url":{"type":"string"},"timeout":{"type":"number","minimum":0}},"required":["url"],"additionalProperties":false}`,
			run: func(_ *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					URL     string
					Timeout *float64
				}]("fetch", args)
				if err != nil {
					return nil, err
				}
				timeout := 5.0
				if in.Timeout != nil {
					timeout = *in.Timeout
				}
				if u, err := url.Parse(in.URL); err == nil && u.Host == slowHost && timeout < slowSeconds {
					return nil, fmt.Errorf("timed out after %gs fetching %s", timeout, in.URL)
				}
				p, ok := pages[in.URL]
				if !ok {
					return nil, fmt.Errorf("404 Not Found: %s", in.URL)
				}
				links := p.links
				if links == nil {
					links = []string{}
				}
				return map[string]any{"url": in.URL, "title": p.title, "text": p.text, "links": links}, nil
			}},
		{name: "summarize", description: "Summarise text in at most max_words words (default 12).",
			schema: `{"type":"object","properties":{"text":{"type":"string"},"max_words":{"type":"integer","minimum":1}},"required":["text"],"additionalProperties":false}`,
			run: func(_ *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					Text     string
					MaxWords int `json:"max_words"`
				}]("summarize", args)
				if err != nil {
					return nil, err
				}
				if in.MaxWords == 0 {
					in.MaxWords = 12
				}
				fields := strings.Fields(in.Text)
				if len(fields) <= in.MaxWords {
					return strings.Join(fields, " "), nil
				}
				return strings.Join(fields[:in.MaxWords], " ") + " ...", nil
			}},
		{name: "get_weather", description: "Return the current weather of a city (city, temp_c, condition).",
			schema: `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`,
			run: func(_ *World, args json.RawMessage) (any, error) {
				in, err := decode[struct{ City string }]("get_weather", args)
				if err != nil {
					return nil, err
				}
				if w, ok := weather[strings.ToLower(in.City)]; ok {
					return w, nil
				}
				return nil, fmt.Errorf("unknown city: %s", in.City)
			}},
		{name: "get_stock_price", description: "Return the last price of a ticker symbol.",
			schema: `{"type":"object","properties":{"symbol":{"type":"string"}},"required":["symbol"],"additionalProperties":false}`,
			run: func(_ *World, args json.RawMessage) (any, error) {
				in, err := decode[struct{ Symbol string }]("get_stock_price", args)
				if err != nil {
					return nil, err
				}
				if p, ok := stocks[strings.ToUpper(in.Symbol)]; ok {
					return map[string]any{"symbol": strings.ToUpper(in.Symbol), "price": p}, nil
				}
				return nil, fmt.Errorf("unknown symbol: %s", in.Symbol)
			}},
	}
}
