package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// value maps a tool's result to the JSON value the program receives:
//
//	structuredContent present        that JSON value (dict, list, ...)
//	no content                       None
//	one content block                its value
//	several blocks                   a list of their values, in order
//
// where a text block's value is its text (str, never parsed) and any other
// block (image, audio, resource, resource link) is its MCP JSON object as a
// dict ({"type": "image", "mimeType": ..., "data": base64}). A list keeps
// several text blocks apart: joining them would invent a separator the
// server never sent.
func value(result *sdk.CallToolResult) (json.RawMessage, error) {
	if result.StructuredContent != nil {
		return json.Marshal(result.StructuredContent)
	}
	values := make([]json.RawMessage, 0, len(result.Content))
	for _, block := range result.Content {
		var encoded []byte
		var err error
		if text, ok := block.(*sdk.TextContent); ok {
			encoded, err = json.Marshal(text.Text)
		} else {
			encoded, err = json.Marshal(block)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot encode a %T block: %w", block, err)
		}
		values = append(values, encoded)
	}
	switch len(values) {
	case 0:
		return json.RawMessage("null"), nil
	case 1:
		return values[0], nil
	}
	return json.Marshal(values)
}

// errorText is the message of a result with isError: its text blocks,
// one per line (what the server meant the model to read).
func errorText(result *sdk.CallToolResult) string {
	var lines []string
	for _, block := range result.Content {
		if text, ok := block.(*sdk.TextContent); ok {
			lines = append(lines, text.Text)
		}
	}
	if len(lines) == 0 {
		return "the tool reported an error and said nothing more"
	}
	return strings.Join(lines, "\n")
}
