package host_test

import "testing"

// engineTests is the engine's behaviour that does not depend on where the
// guest runs: one table, run against an in-process and a sandboxed engine
// (TestEngineInproc, TestEngineSandbox), so neither transport drifts.
var engineTests = []struct {
	name string
	test func(t *testing.T, m isolationMode)
}{
	{"ToolValueAndTrace", testToolValueAndTrace},
	{"ToolErrorIsCatchableRuntimeError", testToolErrorIsCatchableRuntimeError},
	{"UncaughtToolErrorCarriesLine", testUncaughtToolErrorCarriesLine},
	{"ExceptionsWithLineNumbers", testExceptionsWithLineNumbers},
	{"UnknownToolAndMalformedRequest", testUnknownToolAndMalformedRequest},
	{"SchemaMismatch", testSchemaMismatch},
	{"BadInputs", testBadInputs},
	{"UnencodableResult", testUnencodableResult},
	{"ResultSizeLimit", testResultSizeLimit},
	{"RawNumbersCrossExactly", testRawNumbersCrossExactly},
	{"TimeoutInterruptsAndNextExecutionWorks", testTimeoutInterruptsAndNextExecutionWorks},
	{"TimeoutCannotBeCaught", testTimeoutCannotBeCaught},
	{"TimeoutDuringToolCallCancelsIt", testTimeoutDuringToolCallCancelsIt},
	{"ContextEndDuringToolCallIsNotTheToolsError", testContextEndDuringToolCallIsNotTheToolsError},
	{"Cancel", testCancel},
	{"StdoutCaptureAndCap", testStdoutCaptureAndCap},
	{"StdoutIsPerExecution", testStdoutIsPerExecution},
	{"ToolPanicIsAnError", testToolPanicIsAnError},
	{"ToolCallLimitStopsTheProgram", testToolCallLimitStopsTheProgram},
	{"RecursionLimit", testRecursionLimit},
	{"BuiltinsArePerExecution", testBuiltinsArePerExecution},
	{"TypedFuncTool", testTypedFuncTool},
	{"EmitAndPositionalArguments", testEmitAndPositionalArguments},
	{"ConcurrentExecutions", testConcurrentExecutions},
	{"ClosedEngine", testClosedEngine},
	{"ExecuteWithDoneContextRunsNothing", testExecuteWithDoneContextRunsNothing},
	{"PLMRunsIndependentCallsConcurrently", testPLMRunsIndependentCallsConcurrently},
	{"PLMNeverStartsEffectfulToolsEarly", testPLMNeverStartsEffectfulToolsEarly},
	{"PLMUnreachedCallsAreCancelled", testPLMUnreachedCallsAreCancelled},
	{"PLMMismatchRunsTheRequestNormally", testPLMMismatchRunsTheRequestNormally},
	{"PLMPrepareRefusesNonSpeculativeAndUnknownTools", testPLMPrepareRefusesNonSpeculativeAndUnknownTools},
	{"PLMToolErrorRaisesAtTheCallSite", testPLMToolErrorRaisesAtTheCallSite},
	{"StreamStartsCallsBeforeTheProgramEnds", testStreamStartsCallsBeforeTheProgramEnds},
	{"AbortedStreamCancelsItsCalls", testAbortedStreamCancelsItsCalls},
	{"CancelledContextCancelsStreamCalls", testCancelledContextCancelsStreamCalls},
	{"EngineCloseAbortsOpenStreams", testEngineCloseAbortsOpenStreams},
	{"TwoStreamsInARowDoNotSeeEachOther", testTwoStreamsInARowDoNotSeeEachOther},
	{"StreamSyntaxErrors", testStreamSyntaxErrors},
	{"StreamSplitsUTF8AcrossChunks", testStreamSplitsUTF8AcrossChunks},
	{"StreamFinishHasADeadline", testStreamFinishHasADeadline},
	{"AsyncGatherOfToolsOverlapsOnTheHost", testAsyncGatherOfToolsOverlapsOnTheHost},
	{"AsyncTopLevelAwaitTaskGroupAndWaitFor", testAsyncTopLevelAwaitTaskGroupAndWaitFor},
	{"AsyncToolErrorIsRaisedAtItsAwait", testAsyncToolErrorIsRaisedAtItsAwait},
	{"AsyncSyncHelperGetsTheValue", testAsyncSyncHelperGetsTheValue},
	{"AsyncUnawaitedCallRunsAndIsCancelledAtTheEnd", testAsyncUnawaitedCallRunsAndIsCancelledAtTheEnd},
	{"AsyncEffectfulToolsGatheredRunAsAsked", testAsyncEffectfulToolsGatheredRunAsAsked},
	{"AsyncDeadlineEndsInTimeout", testAsyncDeadlineEndsInTimeout},
	{"UTF8Mode", testUTF8Mode},
	{"SyntaxErrorAndCycleMessages", testSyntaxErrorAndCycleMessages},
	{"AsyncLoopKeepsRunningWhileToolsArePending", testAsyncLoopKeepsRunningWhileToolsArePending},
	{"AsyncCallsCountAgainstTheToolCallLimit", testAsyncCallsCountAgainstTheToolCallLimit},
}

func TestEngineInproc(t *testing.T)  { runEngineTests(t, inprocMode) }
func TestEngineSandbox(t *testing.T) { runEngineTests(t, sandboxMode) }

func runEngineTests(t *testing.T, m isolationMode) {
	for _, c := range engineTests {
		t.Run(c.name, func(t *testing.T) { c.test(t, m) })
	}
}
