package protocol

// ClockTool is the tool name of the guest's clock crossing in an execution
// that keeps a journal: the program's wall-clock readings (time.time,
// datetime.now) come from the host, which records them, so that a replay
// reads the same times. No tool may take its name (bridge.NewTool refuses it).
const ClockTool = "__spine_clock"

// Determinism is how a journaled execution's guest makes the program's
// nondeterministic sources repeatable: `random` and os.urandom (so uuid4
// and secrets) are seeded from Seed, and the wall clock is read through
// ClockTool.
type Determinism struct {
	Seed int64 `json:"seed"`
}
