// Package tracehtml renders one execution as a self-contained HTML page: the
// program with the lines that call tools marked, a waterfall of the tool
// calls on a time axis (early, streamed, claimed, mismatched, stale, refused
// and failed calls told apart), the arrivals of a streamed program's chunks,
// and the outcome. The page loads nothing: its style, script and data are
// inline, and its Content-Security-Policy forbids anything else, so a
// program's text or a tool's error (untrusted) can never fetch or run
// anything (they are only ever set as text).
package tracehtml

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"html"
	"io"
	"strings"
	"time"

	"github.com/spine-sandbox/spine/host"
)

// Page is what the page shows.
type Page struct {
	Title    string         // the page's title (the program's name, a run id)
	Source   string         // the program as it ran (for a stream, everything fed)
	Response *host.Response // the outcome and its trace
}

// ContentSecurityPolicy is the policy the page carries in a meta element; a
// server sending the page should send it as a header too.
const ContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

//go:embed page.js
var script string

//go:embed page.css
var style string

// data is what the script draws from.
type data struct {
	Title    string           `json:"title"`
	Source   []string         `json:"source"`
	Response *host.Response   `json:"response"`
	Sites    map[string][]int `json:"sites"` // tool -> the lines calling it
	// RunStartMs is where the program's execution starts on the time axis: 0,
	// or for a stream its end (the calls and chunks count from its start).
	RunStartMs float64 `json:"run_start_ms"`
	TotalMs    float64 `json:"total_ms"` // the length of the time axis
}

// Render writes the page.
func Render(w io.Writer, page Page) error {
	resp := page.Response
	if resp == nil {
		resp = &host.Response{}
	}
	tools := map[string]bool{}
	for _, c := range resp.Calls {
		tools[c.Tool] = true
	}
	runStart, total := axis(resp)
	encoded, err := json.Marshal(data{Title: page.Title, Source: strings.Split(page.Source, "\n"), Response: resp,
		Sites: callSites(page.Source, tools), RunStartMs: runStart, TotalMs: total})
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
	b.WriteString("<meta http-equiv=\"Content-Security-Policy\" content=\"" + ContentSecurityPolicy + "\">\n")
	b.WriteString("<title>" + html.EscapeString("spine run "+page.Title) + "</title>\n<style>\n" + style + "</style>\n</head>\n")
	b.WriteString("<body>\n<noscript>This page draws the trace with its inline script.</noscript>\n")
	// json.Marshal escapes <, > and &, so nothing in the data can end the
	// script element.
	b.WriteString("<script type=\"application/json\" id=\"spine-trace\">")
	b.Write(encoded)
	b.WriteString("</script>\n<script>\n" + script + "</script>\n</body></html>\n")
	_, err = w.Write(b.Bytes())
	return err
}

// axis is where the program's own execution starts and how long the time
// axis is, in milliseconds: calls and chunks are offsets from the start of
// the execution (of the stream, when streamed), and a streamed program ran
// from the end of its stream (its last chunk) for Elapsed.
func axis(resp *host.Response) (runStart, total float64) {
	if n := len(resp.Chunks); n > 0 {
		runStart = ms(resp.Chunks[n-1].At)
	}
	total = runStart + ms(resp.Elapsed)
	for _, c := range resp.Calls {
		total = max(total, ms(c.End))
	}
	return runStart, max(total, 0.001)
}

// ms is a duration as the Response's JSON writes it (to the microsecond), so
// the axis and the bars the script draws from that JSON agree exactly.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
