package mcp

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResultValues(t *testing.T) {
	image := &sdk.ImageContent{Data: []byte{1, 2}, MIMEType: "image/png"}
	cases := []struct {
		result *sdk.CallToolResult
		want   string
	}{
		{&sdk.CallToolResult{StructuredContent: map[string]any{"a": 1}, Content: []sdk.Content{&sdk.TextContent{Text: `{"a":1}`}}}, `{"a":1}`},
		{&sdk.CallToolResult{}, `null`},
		{&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "42"}}}, `"42"`},
		{&sdk.CallToolResult{Content: []sdk.Content{image}}, `{"type":"image","mimeType":"image/png","data":"AQI="}`},
		{&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "see"}, image}},
			`["see",{"type":"image","mimeType":"image/png","data":"AQI="}]`},
	}
	for _, c := range cases {
		got, err := value(c.result)
		if err != nil || string(got) != c.want {
			t.Errorf("value(%+v) = %s, %v; want %s", c.result, got, err, c.want)
		}
	}
	if text := errorText(&sdk.CallToolResult{IsError: true, Content: []sdk.Content{image}}); text != "the tool reported an error and said nothing more" {
		t.Errorf("errorText without text = %q", text)
	}
}
