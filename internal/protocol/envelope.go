package protocol

import "encoding/json"

// ExecuteRequest is the payload of an execute ('x' frame, or
// spine_execute in process): what bootstrap.execute reads.
type ExecuteRequest struct {
	Source   string          `json:"source"`
	Inputs   json.RawMessage `json:"inputs,omitempty"`
	Manifest json.RawMessage `json:"manifest,omitempty"` // []ManifestEntry
	// ManifestKey names Manifest's exact bytes (a digest): the guest keeps
	// what it works out from a manifest (the tools' signatures) under it.
	// The host writes both first, key then manifest: the guest then skips
	// parsing a manifest whose text it has parsed before under that key
	// (bootstrap._load_request).
	ManifestKey string `json:"manifest_key,omitempty"`
	PLM         bool   `json:"plm,omitempty"`
	// Prefix runs the program received by prefix_begin/prefix_feed for
	// Stream instead of Source, Inputs and Manifest.
	Prefix bool          `json:"prefix,omitempty"`
	Stream string        `json:"stream,omitempty"`
	Limits ExecuteLimits `json:"limits"`
	Native *NativeMode   `json:"native,omitempty"`
	// Live asks the guest to hand over the program's output as it is
	// written (CrossOutput), for each stream it names ("stdout", "stderr").
	Live []string `json:"live,omitempty"`
	// Name is the program's name in its tracebacks and syntax errors
	// (absent: ProgramFilename).
	Name string `json:"name,omitempty"`
	// Determinism makes the program repeatable for a journal (journal.go);
	// absent: the program's clock and randomness are the real ones.
	Determinism *Determinism `json:"determinism,omitempty"`
	// Session names the session whose namespace the program runs in
	// (variables, functions, imports of its earlier executions); absent: a
	// fresh namespace.
	Session string `json:"session,omitempty"`
	// CompileOnly asks for the program compiled, not run: the value is a
	// Compiled (or the error envelope of its syntax error).
	CompileOnly bool `json:"compile_only,omitempty"`
	// Compiled is Source as an earlier CompileOnly request compiled it for
	// the same manifest, PLM and fanout; the guest runs it instead of
	// compiling Source again (unless its Python differs).
	Compiled *Compiled `json:"compiled,omitempty"`
	// KeepPlan asks a guest that compiles a native program itself to hand
	// over what it made (a Compiled with its Plan) with its first native
	// crossing, a start it sends before the program runs, even with no
	// unit. The host sets it only for a sandboxed child's one execution, and
	// believes only that first crossing (see internal/keptplan).
	KeepPlan bool `json:"keep_plan,omitempty"`
}

// Compiled is a program compiled by the guest: its code object marshalled
// (base64), the PLM helpers it calls, its PLM form as text, and the Python
// that compiled it (marshal is only read back by the same version).
type Compiled struct {
	Code        string   `json:"code"`
	Helpers     []string `json:"helpers"`
	Transformed string   `json:"transformed"`
	Python      string   `json:"python"`
	// Plan is the hot-function plan of a native program (a Plan, its JSON
	// kept as the guest wrote it): the code is then the program as
	// hot.decorate marks it, and a guest that reads both neither parses nor
	// plans the program again.
	Plan json.RawMessage `json:"plan,omitempty"`
}

// Plan is guest/hot.py's Plan: the program's top-level functions in order,
// the units handed to the compiler and why the others stay Python.
type Plan struct {
	Functions []string          `json:"functions"`
	Units     []PlanUnit        `json:"units"`
	Reasons   map[string]string `json:"reasons"`
}

// PlanUnit is hot.Unit: a function with those it calls (Names), its source,
// where each piece starts in the program (Lines: unit line, program line)
// and the module-level instances it keeps natively.
type PlanUnit struct {
	Name      string   `json:"name"`
	Names     []string `json:"names"`
	Source    string   `json:"source"`
	Lines     [][2]int `json:"lines"`
	Instances []string `json:"instances"`
}

// ProgramFilename is the filename the program's code is compiled under,
// whatever its Name: the runtime delivers interrupts only to frames of it.
const ProgramFilename = "<spine>"

// MaxNameChars bounds ExecuteRequest.Name.
const MaxNameChars = 256

// ExecuteLimits are the limits bootstrap applies itself; the host checks
// the result against them again (CheckResponse).
type ExecuteLimits struct {
	StdoutBytes int `json:"stdout_bytes"`
	ResultBytes int `json:"result_bytes"`
	ResultDepth int `json:"result_depth"`
	Recursion   int `json:"recursion"`
	Fanout      int `json:"fanout"`
}

// ManifestEntry names one tool a program may call. Reads (of a speculative
// tool) and Writes (of an effectful one) name the resources it depends on and
// changes: absent (nil) means everything, [] nothing (effects order reads).
type ManifestEntry struct {
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	Speculative bool      `json:"speculative"`
	Reads       *[]string `json:"reads,omitempty"`
	Writes      *[]string `json:"writes,omitempty"`
	// Signature is the tool function's signature and docstring as the
	// host renders them for prompts: {"params": [{"name", "type",
	// "default"}], "kwargs": bool, "returns": text, "doc": text}.
	Signature json.RawMessage `json:"signature,omitempty"`
}

// NativeMode is the request's hot-function mode.
type NativeMode struct {
	Mode string `json:"mode"` // "eager" or "auto"
	Hot  int    `json:"hot"`  // calls that make a function hot (auto)
}

// The entry points an 'e' frame (spine_call_entry in process) may name.
// Each takes one string.
const (
	EntryPrefixBegin = "prefix_begin" // PrefixBegin JSON
	EntryPrefixFeed  = "prefix_feed"  // PrefixFeed JSON
	EntryPrefixAbort = "prefix_abort" // the stream id itself
	// EntryNativeSetup loads the native module loader from a toolchain's
	// python dir (in process; the zygote does it before it forks).
	EntryNativeSetup = "native_setup"
	// EntrySessionBegin makes a sandboxed child serve executions one after
	// another (a session's) instead of exiting after one; its argument is
	// empty. EntrySessionEnd drops a session's namespace (in process; its
	// argument is the session id).
	EntrySessionBegin = "session_begin"
	EntrySessionEnd   = "session_end"
)

// PrefixBegin starts receiving a streamed program.
type PrefixBegin struct {
	Stream   string          `json:"stream"`
	Inputs   json.RawMessage `json:"inputs"`
	Manifest json.RawMessage `json:"manifest"`
	Budget   *PrefixBudget   `json:"budget,omitempty"`
}

// PrefixBudget bounds the guest's analysis of a stream (guest/prefix.py's
// Budget): past a statement's budget the statement starts nothing early,
// past the stream's the analysis stops. Zero fields keep the guest's
// defaults.
type PrefixBudget struct {
	StatementSteps int64 `json:"statement_steps,omitempty"`
	StatementMs    int64 `json:"statement_ms,omitempty"`
	StreamMs       int64 `json:"stream_ms,omitempty"`
}

// PrefixFeed is one chunk of a streamed program.
type PrefixFeed struct {
	Stream string `json:"stream"`
	Chunk  string `json:"chunk"`
}

// ToolRequest is the request of a call, prepare or resolve crossing, in
// the guest's canonical encoding (protocol.encode_request): sorted keys, no
// insignificant space. In a prepare, Now (protocol.encode_call_now) says the
// program is making the call now (a tool called in async code, awaited
// later), not that PLM or prefix guessed it.
type ToolRequest struct {
	Tool string          `json:"tool"`
	Args json.RawMessage `json:"args"`
	Now  bool            `json:"now,omitempty"`
}

// WaitRequest is a wait crossing: the handles of the calls the program
// started and awaits, and the longest it may wait (its next timer) in ms.
type WaitRequest struct {
	Handles []uint64 `json:"handles"`
	Ms      float64  `json:"ms"`
}

// WaitAnswer lists the waited handles whose calls are done.
type WaitAnswer struct {
	Done []uint64 `json:"done"`
}

// ToolResponse answers a call or resolve: exactly one of Value and Error.
// With an Error, Type names the exception the program sees (one of
// ToolExceptions; absent: RuntimeError), and Call, when not 0, is the id
// under which the host keeps the tool's own error: the guest reports it back
// in its Response when that exception ends the program.
type ToolResponse struct {
	Value json.RawMessage `json:"value,omitempty"`
	Error *string         `json:"error,omitempty"`
	Type  string          `json:"type,omitempty"`
	Call  uint64          `json:"call,omitempty"`
}

// ToolExceptions are the Python exceptions a tool's error may raise in the
// program, the default first. The guest raises no other name, whatever a
// response says.
var ToolExceptions = []string{"RuntimeError", "ValueError", "KeyError", "PermissionError", "TimeoutError", "LookupError"}

// ToolException is name when a tool's error may raise it, else the default.
func ToolException(name string) string {
	for _, known := range ToolExceptions {
		if name == known {
			return name
		}
	}
	return ToolExceptions[0]
}

// NativeRequest is a native crossing's request: "start" (once: the
// execution's units), "compile" (auto mode: one hot function, Name), "poll"
// (the compilations that ended). Its answer is {"units": [...]} or
// {"error": message}.
type NativeRequest struct {
	Op    string             `json:"op"`
	Units []NativeUnitSource `json:"units"`
	Name  string             `json:"name"`
	// Kept is what a guest asked to keep its plan (ExecuteRequest.KeepPlan)
	// made of the program; only with a start.
	Kept *Compiled `json:"kept,omitempty"`
}

// The members of a kept plan's exchange as the guest names them: the
// request's ExecuteRequest.KeepPlan, and NativeRequest.Kept of the start
// that answers it (their tags, TestKeptPlanMembersAreTheTags).
const (
	RequestKeepPlan = "keep_plan"
	NativeKept      = "kept"
)

// The native crossing's operations.
const (
	NativeStart   = "start"
	NativeCompile = "compile"
	NativePoll    = "poll"
)

// NativeDescriptors is the member a sandboxed child adds to a native answer
// that came with compiled modules (SCM_RIGHTS): the descriptor numbers it
// received, in order. The host names each ready module by its index there
// ("module"), never by a path into the cache.
const NativeDescriptors = "fds"

// NativeModulesPerAnswer is the most module descriptors one native answer
// carries (a child takes no more: SPINE_NATIVE_FDS_MAX; the kernel passes at
// most 253 with one message). The host answers a ready unit beyond them as
// pending and "held", and hands its module over with a later poll.
const NativeModulesPerAnswer = 32

// NativeUnitSource is one function handed to the compiler.
type NativeUnitSource struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// Response is the envelope bootstrap.execute returns: {"value": ...} when
// the program finished, {"error": "Type: message", "kind": ...} when it did
// not, with what else the guest reports.
type Response struct {
	Value           json.RawMessage `json:"value"`
	Error           *string         `json:"error"`
	Kind            Outcome         `json:"kind"`
	Line            int             `json:"line"`
	Traceback       string          `json:"traceback"`
	Transformed     string          `json:"transformed"`
	StdoutTruncated bool            `json:"stdout_truncated"`
	StderrTruncated bool            `json:"stderr_truncated"`
	Native          json.RawMessage `json:"native"` // []NativeReport
	// Call is the id (ToolResponse.Call) of the tool error the program
	// raised and did not catch; 0 when the error was not a tool's. The host
	// believes it only for an id it issued whose exception type matches.
	Call uint64 `json:"call"`
}

// NativeReport is one module-level function in the guest's hot-function
// report. The host believes none of it that it did not record itself.
type NativeReport struct {
	Name          string `json:"name"`
	Status        string `json:"status"` // "native" or "python"
	Reason        string `json:"reason"`
	SwitchedAfter int    `json:"switched_after"`
	Fallbacks     int    `json:"fallbacks"`
	Calls         int    `json:"calls"`
}

// Hello is the zygote's 'H' frame: the isolation layers the kernel gave it.
type Hello struct {
	Landlock      int    `json:"landlock"` // the ABI in force, 0: none
	LandlockError string `json:"landlock_error"`
	Seccomp       bool   `json:"seccomp"`
	Root          bool   `json:"root"` // the private root and /proc are in place (guest-c/sandbox/mount.c)
}
