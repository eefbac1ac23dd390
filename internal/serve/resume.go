package serve

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/spine-sandbox/spine/host"
)

// resumeJSON is the body of POST /v1/resume: the journal of a suspended
// run (its answer's "journal") and the decision on its pending call. The
// journal is data, so any replica resumes it: no affinity, no state.
type resumeJSON struct {
	Journal  *host.Journal `json:"journal"`
	Decision struct {
		Kind    host.DecisionKind `json:"kind"`
		Message string            `json:"message,omitempty"`
		Value   json.RawMessage   `json:"value,omitempty"`
	} `json:"decision"`
}

// handleResume continues a suspended run, answered as /v1/run (it may
// suspend again, with a new journal); a journal this engine refuses (other
// program or tools, edited) is a 400.
func (s *Server) handleResume(w http.ResponseWriter, r *http.Request) {
	body, ok := s.readBody(w, r)
	if !ok {
		return
	}
	var in resumeJSON
	decoder := json.NewDecoder(bytes.NewReader(body))
	decoder.DisallowUnknownFields()
	if err := decoder.Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, "resume: "+err.Error())
		return
	}
	if in.Journal == nil {
		writeError(w, http.StatusBadRequest, `resume: "journal" is required`)
		return
	}
	decision := host.Decision{Kind: in.Decision.Kind, Message: in.Decision.Message, Value: in.Decision.Value}
	resp, err := s.engine.Resume(r.Context(), in.Journal, decision)
	s.answer(w, r, in.Journal.Request.Name, in.Journal.Request.Source, resp, err)
}
