package protocol

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The mirrors of this package: every constant of guest-c/spine_protocol.h
// and of guest/protocol.py, by its name there, with the value it must have.
// A name in a mirror that is missing here fails the test too, so nothing is
// added to a mirror without being checked.
var cMirror = map[string]any{
	"SPINE_FRAME_MODULE":       KindModule,
	"SPINE_FRAME_CODE":         KindCode,
	"SPINE_FRAME_COMPILED":     KindCompiled,
	"SPINE_FRAME_NATIVE_SETUP": KindNativeSetup,
	"SPINE_FRAME_WARM":         KindWarm,
	"SPINE_FRAME_INIT":         KindInit,
	"SPINE_FRAME_HELLO":        KindHello,
	"SPINE_FRAME_ERROR":        KindError,
	"SPINE_FRAME_FORK":         KindFork,
	"SPINE_FRAME_CHILD":        KindChild,
	"SPINE_FRAME_EXIT":         KindExit,
	"SPINE_FRAME_GO":           KindGo,
	"SPINE_FRAME_READY":        KindReady,
	"SPINE_FRAME_EXECUTE":      KindExecute,
	"SPINE_FRAME_ENTRY":        KindEntry,
	"SPINE_FRAME_ANSWER":       KindAnswer,
	"SPINE_FRAME_CALL":         KindCall,
	"SPINE_FRAME_PREPARE":      KindPrepare,
	"SPINE_FRAME_RESOLVE":      KindResolve,
	"SPINE_FRAME_NATIVE":       KindNative,
	"SPINE_FRAME_OUTPUT":       KindOutput,
	"SPINE_FRAME_WAIT":         KindWait,
	"SPINE_FRAME_DONE":         KindDone,
	"SPINE_FRAME_RESULT":       KindResult,
	"SPINE_FRAME_FAILED":       KindFailed,
	"SPINE_FRAME_HEADER_LEN":   HeaderLen,
	"SPINE_INIT_LEN":           InitLen,
	"SPINE_CHILD_LEN":          ChildLen,
	"SPINE_EXIT_LEN":           ExitLen,
	"SPINE_EXECUTE_HEAD_LEN":   ExecuteHeadLen,
	"SPINE_CROSSING_HEAD_LEN":  CrossingHeadLen,
	"SPINE_ANSWER_HEAD_LEN":    AnswerHeadLen,
	"SPINE_RESULT_HEAD_LEN":    ResultHeadLen,
	"SPINE_HOST_FRAME_MAX":     HostFrameMax,
	"SPINE_CONTROL_MAX":        ControlMax,
	"SPINE_OP_CALL":            CrossCall,
	"SPINE_OP_PREPARE":         CrossPrepare,
	"SPINE_OP_RESOLVE":         CrossResolve,
	"SPINE_OP_FETCH":           CrossFetch,
	"SPINE_OP_NATIVE":          CrossNative,
	"SPINE_OP_OUTPUT":          CrossOutput,
	"SPINE_OP_WAIT":            CrossWait,
	"SPINE_INTERRUPT_TIMEOUT":  Timeout,
	"SPINE_INTERRUPT_CANCEL":   Cancelled,
	"SPINE_INTERRUPT_LIMIT":    LimitExceeded,
	"SPINE_ENTRY_PREFIX_BEGIN": EntryPrefixBegin,
	"SPINE_ENTRY_PREFIX_FEED":  EntryPrefixFeed,
	"SPINE_ENTRY_PREFIX_ABORT": EntryPrefixAbort,
	"SPINE_NATIVE_DESCRIPTORS": NativeDescriptors,
	"SPINE_NATIVE_FDS_MAX":     NativeModulesPerAnswer,

	// Sessions and journals.
	"SPINE_ENTRY_SESSION_BEGIN": EntrySessionBegin,
}

var pythonMirror = map[string]any{
	"OUTCOME_PROGRAM":      OutcomeProgram,
	"OUTCOME_RESULT_LIMIT": OutcomeResultLimit,
	"OUTCOME_INTERRUPT":    OutcomeInterrupt,
	"GUEST_OUTCOMES":       GuestOutcomes,
	"TOOL_EXCEPTIONS":      ToolExceptions,
	"PROGRAM_FILENAME":     ProgramFilename,
	"OUTPUT_STDOUT":        OutputStdout,
	"OUTPUT_STDERR":        OutputStderr,
	"DEFAULT_LIMITS": ExecuteLimits{StdoutBytes: DefaultStdoutBytes, ResultBytes: DefaultResultBytes,
		ResultDepth: DefaultResultDepth, Recursion: DefaultRecursion, Fanout: DefaultFanout},
	"MESSAGE_CHARS":       MessageChars,
	"TRACEBACK_CHARS":     TracebackChars,
	"TRANSFORMED_CHARS":   TransformedChars,
	"NATIVE_REPORT_BYTES": NativeReportBytes,
	"ENTRY_PREFIX_BEGIN":  EntryPrefixBegin,
	"ENTRY_PREFIX_FEED":   EntryPrefixFeed,
	"ENTRY_PREFIX_ABORT":  EntryPrefixAbort,
	"ENTRY_NATIVE_SETUP":  EntryNativeSetup,
	"NATIVE_START":        NativeStart,
	"NATIVE_COMPILE":      NativeCompile,
	"NATIVE_POLL":         NativePoll,
	"NATIVE_DESCRIPTORS":  NativeDescriptors,
	"NATIVE_KEPT":         NativeKept,
	"REQUEST_KEEP_PLAN":   RequestKeepPlan,

	// Sessions and journals.
	"ENTRY_SESSION_BEGIN": EntrySessionBegin,
	"ENTRY_SESSION_END":   EntrySessionEnd,
	"CLOCK_TOOL":          ClockTool,
}

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func TestMirrorsMatch(t *testing.T) {
	root := repoRoot(t)
	t.Run("C", func(t *testing.T) {
		text, err := os.ReadFile(filepath.Join(root, "guest-c", "spine_protocol.h"))
		if err != nil {
			t.Fatal(err)
		}
		compare(t, "spine_protocol.h", parseC(t, string(text)), cMirror)
	})
	t.Run("Python", func(t *testing.T) {
		compare(t, "protocol.py", pythonConstants(t, filepath.Join(root, "guest")), pythonMirror)
	})
}

// compare checks that a mirror has exactly the expected names, each with
// the expected value (compared as JSON, which is how the guest sees them).
func compare(t *testing.T, file string, got map[string]json.RawMessage, want map[string]any) {
	t.Helper()
	for _, problem := range drift(t, file, got, want) {
		t.Error(problem)
	}
}

func drift(t *testing.T, file string, got map[string]json.RawMessage, want map[string]any) []string {
	var names []string
	for name := range got {
		names = append(names, name)
	}
	for name := range want {
		if _, ok := got[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var problems []string
	for _, name := range names {
		value, ok := got[name]
		expected, known := want[name]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s lacks %s (internal/protocol defines it as %v)", file, name, expected))
		case !known:
			problems = append(problems, fmt.Sprintf("%s defines %s = %s, which internal/protocol does not: define it there first", file, name, value))
		case !sameJSON(t, value, expected):
			problems = append(problems, fmt.Sprintf("%s: %s = %s, but internal/protocol says %v", file, name, value, expected))
		}
	}
	return problems
}

func sameJSON(t *testing.T, got json.RawMessage, want any) bool {
	if k, ok := want.(Kind); ok {
		want = int(k) // a frame kind is a character: compare its code
	}
	encoded, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal(encoded, &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

var (
	cEnumEntry = regexp.MustCompile(`(?m)^\s*(SPINE_[A-Z0-9_]+)\s*=\s*([^,]+),`)
	cDefine    = regexp.MustCompile(`(?m)^#define\s+(SPINE_[A-Z0-9_]+)\s+(.+?)\s*$`)
	cShift     = regexp.MustCompile(`^\(?\s*(\d+)u?\s*<<\s*(\d+)\s*\)?$`)
)

// parseC reads the header's constants: enum entries and #defines whose
// value is a character, a number, a shift of numbers or a string.
func parseC(t *testing.T, text string) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	add := func(name, expr string) {
		expr = strings.TrimSpace(expr)
		if i := strings.Index(expr, "/*"); i >= 0 {
			expr = strings.TrimSpace(expr[:i])
		}
		var value any
		switch {
		case len(expr) == 3 && expr[0] == '\'' && expr[2] == '\'':
			value = int(expr[1])
		case strings.HasPrefix(expr, `"`):
			s, err := strconv.Unquote(expr)
			if err != nil {
				t.Fatalf("spine_protocol.h: %s: %v", name, err)
			}
			value = s
		case cShift.MatchString(expr):
			m := cShift.FindStringSubmatch(expr)
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			value = a << b
		default:
			n, err := strconv.Atoi(strings.TrimSuffix(expr, "u"))
			if err != nil {
				t.Fatalf("spine_protocol.h: %s = %q is not in a form this test reads", name, expr)
			}
			value = n
		}
		if _, dup := out[name]; dup {
			t.Fatalf("spine_protocol.h defines %s twice", name)
		}
		out[name], _ = json.Marshal(value)
	}
	for _, m := range cEnumEntry.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2])
	}
	for _, m := range cDefine.FindAllStringSubmatch(text, -1) {
		if m[1] != "SPINE_PROTOCOL_H" {
			add(m[1], m[2])
		}
	}
	return out
}

// pythonConstants imports guest/protocol.py with the guest's interpreter and
// returns its upper-case names as JSON.
func pythonConstants(t *testing.T, dir string) map[string]json.RawMessage {
	python := "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("the guest's interpreter %s is required: %v", python, err)
	}
	script := `import json, sys
sys.path.insert(0, sys.argv[1])
import protocol
print(json.dumps({k: v for k, v in vars(protocol).items() if k.isupper()}))`
	out, err := exec.Command(python, "-I", "-c", script, dir).Output()
	if err != nil {
		t.Fatalf("reading protocol.py: %v", err)
	}
	var values map[string]json.RawMessage
	if err := json.Unmarshal(out, &values); err != nil {
		t.Fatal(err)
	}
	return values
}

// A mirror check that cannot fail proves nothing: a drifted value, a
// missing name and an unknown name must each be reported.
func TestMirrorCheckCatchesDrift(t *testing.T) {
	header := "enum {\n  SPINE_FRAME_CALL = 'C',\n};\n#define SPINE_EXTRA (1 << 4)\n"
	want := map[string]any{"SPINE_FRAME_CALL": KindCall, "SPINE_FRAME_READY": KindReady}
	problems := drift(t, "test.h", parseC(t, header), want)
	if len(problems) != 3 {
		t.Fatalf("want 3 problems (drifted SPINE_FRAME_CALL, missing SPINE_FRAME_READY, unknown SPINE_EXTRA), got %q", problems)
	}
	for i, name := range []string{"SPINE_EXTRA", "SPINE_FRAME_CALL", "SPINE_FRAME_READY"} {
		if !strings.Contains(problems[i], name) {
			t.Errorf("problem %d should name %s: %q", i, name, problems[i])
		}
	}
}

func TestKeptPlanMembersAreTheTags(t *testing.T) {
	for name, c := range map[string]struct {
		field reflect.StructField
		want  string
	}{
		"ExecuteRequest.KeepPlan": {must(reflect.TypeOf(ExecuteRequest{}).FieldByName("KeepPlan")), RequestKeepPlan},
		"NativeRequest.Kept":      {must(reflect.TypeOf(NativeRequest{}).FieldByName("Kept")), NativeKept},
	} {
		if tag, _, _ := strings.Cut(c.field.Tag.Get("json"), ","); tag != c.want {
			t.Errorf("%s: tag %q, constant %q", name, tag, c.want)
		}
	}
}

func must(field reflect.StructField, ok bool) reflect.StructField {
	if !ok {
		panic("no such field")
	}
	return field
}
