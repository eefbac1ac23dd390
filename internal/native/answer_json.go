package native

import (
	"encoding/json"
	"strconv"
)

// The native crossing's answer is written here by hand, not by
// encoding/json's reflection: a CLI process answers once, and the
// reflection's first use on these types (their fields and encoders, built
// once per process) was about 40 µs of its CPU in every `--native eager`
// run. The struct stays the definition: answer_json_test fills every field
// of answerUnit by reflection and checks that this writes exactly what
// encoding/json does, so a field added to it and not here fails that test.
// (The request is still read by encoding/json: its Token API, the
// alternative without reflection, cost more on first use.)

// encodeUnits writes {"units": [...]} as json.Marshal would.
func encodeUnits(units []answerUnit) []byte {
	b := append(make([]byte, 0, 128*len(units)+16), `{"units":[`...)
	for i := range units {
		if i > 0 {
			b = append(b, ',')
		}
		b = units[i].appendJSON(b)
	}
	return append(b, "]}"...)
}

func (u *answerUnit) appendJSON(b []byte) []byte {
	b = appendString(append(b, `{"name":`...), u.Name)
	b = appendString(append(b, `,"status":`...), u.Status)
	if u.Path != "" {
		b = appendString(append(b, `,"path":`...), u.Path)
	}
	if u.Module != nil {
		b = strconv.AppendInt(append(b, `,"module":`...), int64(*u.Module), 10)
	}
	if u.Cache != "" {
		b = appendString(append(b, `,"cache":`...), u.Cache)
	}
	if u.Failure != nil {
		// A unit that failed has no module to load: reflection's cost here
		// is paid by no cached run.
		encoded, _ := json.Marshal(u.Failure)
		b = append(append(b, `,"failure":`...), encoded...)
	}
	if u.Held {
		b = append(b, `,"held":true`...)
	}
	return append(b, '}')
}

// appendString appends s as encoding/json writes a string (its escapes).
func appendString(b []byte, s string) []byte {
	encoded, _ := json.Marshal(s)
	return append(b, encoded...)
}
