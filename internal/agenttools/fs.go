package agenttools

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

var fixtureFiles = map[string]string{
	"/docs/README.md":       "# Acme CLI\n\nAcme syncs files between machines.\n\n## Install\n\npip install acme-cli\n\n## Usage\n\nacme sync --src ./a --dst ./b\n",
	"/docs/guide.md":        "# Guide\n\nTODO: document the --dry-run flag.\nTODO: add a troubleshooting section.\nConfiguration lives in /config/settings.json.\n",
	"/docs/changelog.md":    "## 1.3.0\n- add --dry-run\n- fix crash on empty dirs\n\n## 1.2.0\n- add sync --delete\n",
	"/data/sales.csv":       "region,month,amount\nnorth,jan,1200\nsouth,jan,950\nnorth,feb,1430\nsouth,feb,1010\neast,jan,700\neast,feb,820\n",
	"/data/users.json":      `[{"id": 1, "name": "alice", "active": true}, {"id": 2, "name": "bob", "active": false}, {"id": 3, "name": "carol", "active": true}]`,
	"/notes/todo.txt":       "buy milk\nreview PR 42\nwrite release notes\n",
	"/config/settings.json": `{"version": "1.3.0", "retries": 3, "mirrors": ["https://mirror1.example.com", "https://mirror2.example.com"]}`,
	"/logs/app.log":         "2026-11-30 10:00:01 INFO start\n2026-11-30 10:00:05 ERROR db timeout\n2026-11-30 10:01:00 WARN slow query\n2026-11-30 10:02:13 ERROR disk full\n2026-11-30 10:03:00 INFO stop\n",
}

func fsDefs() []def {
	return []def{
		{name: "read_file", resource: "files", description: "Return the text of the file at path.",
			schema: `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct{ Path string }]("read_file", args)
				if err != nil {
					return nil, err
				}
				text, ok := w.files[in.Path]
				if !ok {
					return nil, fmt.Errorf("no such file: %s", in.Path)
				}
				return text, nil
			}},
		{name: "list_dir", resource: "files", description: "Return the sorted entries of a directory (subdirectories end with /).",
			schema: `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct{ Path string }]("list_dir", args)
				if err != nil {
					return nil, err
				}
				dir := strings.TrimSuffix(in.Path, "/") + "/"
				seen := map[string]bool{}
				for path := range w.files {
					rest, ok := strings.CutPrefix(path, dir)
					if !ok {
						continue
					}
					if head, _, nested := strings.Cut(rest, "/"); nested {
						seen[head+"/"] = true
					} else {
						seen[rest] = true
					}
				}
				if len(seen) == 0 {
					return nil, fmt.Errorf("no such directory: %s", in.Path)
				}
				entries := make([]string, 0, len(seen))
				for name := range seen {
					entries = append(entries, name)
				}
				sort.Strings(entries)
				return entries, nil
			}},
		{name: "write_file", resource: "files", description: "Write (or, with append=True, append) content to path; return the path and the file's new size.", effectful: true,
			schema: `{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"},"append":{"type":"boolean"}},"required":["path","content"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					Path, Content string
					Append        bool
				}]("write_file", args)
				if err != nil {
					return nil, err
				}
				if !strings.HasPrefix(in.Path, "/") {
					return nil, fmt.Errorf("path must be absolute: %s", in.Path)
				}
				if in.Append {
					w.files[in.Path] += in.Content
				} else {
					w.files[in.Path] = in.Content
				}
				return map[string]any{"path": in.Path, "size": len(w.files[in.Path])}, nil
			}},
	}
}
