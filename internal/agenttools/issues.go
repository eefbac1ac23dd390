package agenttools

import (
	"encoding/json"
	"fmt"
	"slices"
)

type issue struct {
	ID       int      `json:"id"`
	Title    string   `json:"title"`
	Body     string   `json:"body"`
	State    string   `json:"state"`
	Labels   []string `json:"labels"`
	Comments []string `json:"comments"`
}

func (i *issue) summary() map[string]any {
	return map[string]any{"id": i.ID, "title": i.Title, "state": i.State, "labels": i.Labels}
}

func fixtureIssues() []*issue {
	return []*issue{
		{101, "Crash on empty directory", "acme sync crashes when the source directory is empty.", "open", []string{"bug"}, []string{}},
		{102, "Document --dry-run", "The guide does not mention --dry-run.", "open", []string{"docs"}, []string{}},
		{103, "Sync is slow on large trees", "Syncing 100k files takes 20 minutes.", "closed", []string{"performance"}, []string{"Fixed in 1.2.0"}},
		{104, "Add Windows support", "Please support Windows paths.", "open", []string{"enhancement"}, []string{}},
		{105, "Wrong exit code on failure", "acme exits 0 when a copy fails.", "open", []string{"bug"}, []string{"Confirmed on 1.3.0"}},
		{106, "Typo in README", "'synchronise' is spelled two ways.", "open", []string{"docs", "good first issue"}, []string{}},
		{107, "Timeout talking to mirror1", "Fetching from mirror1 times out.", "open", []string{"bug", "network"}, []string{}},
	}
}

const issuePage = 3

func (w *World) findIssue(id int) (*issue, error) {
	for _, i := range w.issues {
		if i.ID == id {
			return i, nil
		}
	}
	return nil, fmt.Errorf("issue %d not found", id)
}

func issueDefs() []def {
	return []def{
		{name: "list_issues", resource: "issues", description: "List issues (state: open, closed or all; optional label), 3 per page; pass next_cursor back as cursor for the next page.",
			schema: `{"type":"object","properties":{"state":{"enum":["open","closed","all"]},"label":{"type":["string","null"]},"cursor":{"type":["string","null"]}},"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					State  string
					Label  *string
					Cursor *string
				}]("list_issues", args)
				if err != nil {
					return nil, err
				}
				if in.State == "" {
					in.State = "open"
				}
				after := 0
				if in.Cursor != nil {
					if _, err := fmt.Sscanf(*in.Cursor, "after-%d", &after); err != nil {
						return nil, fmt.Errorf("invalid cursor %q", *in.Cursor)
					}
				}
				page := []map[string]any{}
				var next any
				for _, i := range w.issues {
					if i.ID <= after || (in.State != "all" && i.State != in.State) ||
						(in.Label != nil && !slices.Contains(i.Labels, *in.Label)) {
						continue
					}
					if len(page) == issuePage {
						next = fmt.Sprintf("after-%d", page[len(page)-1]["id"])
						break
					}
					page = append(page, i.summary())
				}
				return map[string]any{"issues": page, "next_cursor": next}, nil
			}},
		{name: "get_issue", resource: "issues", description: "Return one issue with its body and comments.",
			schema: `{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct{ ID int }]("get_issue", args)
				if err != nil {
					return nil, err
				}
				return w.findIssue(in.ID)
			}},
		{name: "create_issue", resource: "issues", description: "Open a new issue; return it.", effectful: true,
			schema: `{"type":"object","properties":{"title":{"type":"string","minLength":1},"body":{"type":"string"},"labels":{"type":"array","items":{"type":"string"}}},"required":["title"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					Title, Body string
					Labels      []string
				}]("create_issue", args)
				if err != nil {
					return nil, err
				}
				if in.Labels == nil {
					in.Labels = []string{}
				}
				i := &issue{ID: w.issues[len(w.issues)-1].ID + 1, Title: in.Title, Body: in.Body, State: "open",
					Labels: in.Labels, Comments: []string{}}
				w.issues = append(w.issues, i)
				return i, nil
			}},
		{name: "close_issue", resource: "issues", description: "Close an open issue, optionally with a comment; return it.", effectful: true,
			schema: `{"type":"object","properties":{"id":{"type":"integer"},"comment":{"type":["string","null"]}},"required":["id"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					ID      int
					Comment *string
				}]("close_issue", args)
				if err != nil {
					return nil, err
				}
				i, err := w.findIssue(in.ID)
				if err != nil {
					return nil, err
				}
				if i.State == "closed" {
					return nil, fmt.Errorf("issue %d is already closed", in.ID)
				}
				i.State = "closed"
				if in.Comment != nil {
					i.Comments = append(i.Comments, *in.Comment)
				}
				return i, nil
			}},
		{name: "comment_issue", resource: "issues", description: "Add a comment to an issue; return the number of comments.", effectful: true,
			schema: `{"type":"object","properties":{"id":{"type":"integer"},"body":{"type":"string","minLength":1}},"required":["id","body"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					ID   int
					Body string
				}]("comment_issue", args)
				if err != nil {
					return nil, err
				}
				i, err := w.findIssue(in.ID)
				if err != nil {
					return nil, err
				}
				i.Comments = append(i.Comments, in.Body)
				return map[string]any{"id": i.ID, "comments": len(i.Comments)}, nil
			}},
	}
}
