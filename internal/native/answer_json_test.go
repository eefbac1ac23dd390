package native

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// filled sets every field of the struct v points to, recursively, to a
// value that is not its zero: a field of a type this does not know fails the
// test, which then names what answer_json.go must learn.
func filled(t *testing.T, v reflect.Value, text string) {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(text + "-" + v.Type().Field(i).Name)
		case reflect.Int:
			f.SetInt(int64(7 + i))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
			switch f.Elem().Kind() {
			case reflect.Struct:
				filled(t, f.Elem(), text)
			case reflect.Int:
				f.Elem().SetInt(int64(3 + i))
			default:
				t.Fatalf("%s.%s points to a %s: answer_json.go and this test do not know it", v.Type(), v.Type().Field(i).Name, f.Elem().Kind())
			}
		default:
			t.Fatalf("%s.%s is a %s: answer_json.go and this test do not know it", v.Type(), v.Type().Field(i).Name, f.Kind())
		}
	}
}

// Texts that need every kind of escape, and bytes that are not UTF-8.
var awkwardTexts = []string{"plain", "quote \" backslash \\ slash /", "<script>&amp;</script>", "tab\tnewline\nnul\x00bell\x07",
	"\u2028\u2029 line separators", "bad utf-8 \xff\xfe end", "é ü 中文 🙂"}

func TestAnswersAreWhatEncodingJSONWrites(t *testing.T) {
	var cases [][]answerUnit
	for _, text := range awkwardTexts {
		var every answerUnit
		filled(t, reflect.ValueOf(&every).Elem(), text)
		zero := 0
		cases = append(cases, []answerUnit{every},
			[]answerUnit{{Name: "f", Status: StatusReady, Module: &zero, Cache: "hit"}, {Name: "g", Status: StatusPending, Held: true},
				{Name: text, Status: StatusFailed, Failure: &Failure{Kind: "compiler", Message: text}}, {Name: "h", Status: StatusCold, Path: text}})
	}
	cases = append(cases, nil, []answerUnit{})
	for _, units := range cases {
		want, err := json.Marshal(struct {
			Units []answerUnit `json:"units"`
		}{append([]answerUnit{}, units...)})
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeUnits(units); !bytes.Equal(got, want) {
			t.Errorf("encodeUnits wrote\n%s\nencoding/json\n%s", got, want)
		}
	}
}
