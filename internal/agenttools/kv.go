package agenttools

import (
	"encoding/json"
	"sort"
	"strings"
)

var fixtureKV = map[string]string{
	"config:theme":    `"dark"`,
	"config:language": `"en"`,
	"user:alice":      `{"name": "Alice Martin", "email": "alice@example.com", "plan": "free", "credits": 120}`,
	"user:bob":        `{"name": "Bob Chen", "email": "bob@example.com", "plan": "pro", "credits": 15}`,
	"user:carol":      `{"name": "Carol Diaz", "email": "carol@example.com", "plan": "free", "credits": 0}`,
	"counter:visits":  `41`,
	"feature:search":  `true`,
	"feature:export":  `false`,
}

func kvDefs() []def {
	return []def{
		{name: "kv_get", resource: "kv", description: "Return the value stored at key, or None.",
			schema: `{"type":"object","properties":{"key":{"type":"string"}},"required":["key"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct{ Key string }]("kv_get", args)
				if err != nil {
					return nil, err
				}
				if v, ok := w.kv[in.Key]; ok {
					return v, nil
				}
				return nil, nil
			}},
		{name: "kv_keys", resource: "kv", description: "Return the stored keys that start with prefix, sorted.",
			schema: `{"type":"object","properties":{"prefix":{"type":"string"}},"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct{ Prefix string }]("kv_keys", args)
				if err != nil {
					return nil, err
				}
				keys := []string{}
				for k := range w.kv {
					if strings.HasPrefix(k, in.Prefix) {
						keys = append(keys, k)
					}
				}
				sort.Strings(keys)
				return keys, nil
			}},
		{name: "kv_put", resource: "kv", description: "Store value at key; return the key and whether it existed.", effectful: true,
			schema: `{"type":"object","properties":{"key":{"type":"string"},"value":{}},"required":["key","value"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct {
					Key   string
					Value json.RawMessage
				}]("kv_put", args)
				if err != nil {
					return nil, err
				}
				_, existed := w.kv[in.Key]
				w.kv[in.Key] = append(json.RawMessage(nil), in.Value...)
				return map[string]any{"key": in.Key, "created": !existed}, nil
			}},
		{name: "kv_delete", resource: "kv", description: "Delete key; return whether it existed.", effectful: true,
			schema: `{"type":"object","properties":{"key":{"type":"string"}},"required":["key"],"additionalProperties":false}`,
			run: func(w *World, args json.RawMessage) (any, error) {
				in, err := decode[struct{ Key string }]("kv_delete", args)
				if err != nil {
					return nil, err
				}
				_, existed := w.kv[in.Key]
				delete(w.kv, in.Key)
				return map[string]any{"deleted": existed}, nil
			}},
	}
}
