package wire

import (
	"runtime"
	"syscall"
	"unsafe"
)

// Creation in the background: where the kernel lets this process take a
// task back out of SCHED_IDLE, the zygote and the children it is making
// run SCHED_IDLE while no execution waits for them, and every child runs
// SCHED_OTHER from the moment it is taken.
//
// A child's fork, confinement and warm-up cost a few milliseconds of CPU;
// on two cores they share the machine with the executions that run. The
// creation gate (gate.go) keeps them out of an execution's way while
// enough spares are ready; below that they run beside executions, and in
// a slow spell that was most of the paced tail. The scheduler can do what
// the gate cannot: a SCHED_IDLE task runs only on a core nothing else
// wants, and yields it the moment an execution's child or the host wakes.
// Creation then still fills every idle moment, so the pool refills at
// once when the machine is quiet.
//
// Two rules keep the pool from paying for it:
//   - creation is in the background only while no Acquire waits and no
//     busy stretch has lasted the gate's maxHold (back to back, a burst).
//     Then executions wait for creation, which other load on the machine
//     could starve at idle priority: the zygote and every starting child
//     go back to SCHED_OTHER at once. (Keeping creation in the background
//     only while a spare is ready as well did worse: bench/RESULTS.md.)
//   - a taken child runs SCHED_OTHER before its first request is sent, so
//     no execution runs at idle priority.
//
// Leaving SCHED_IDLE takes CAP_SYS_NICE in the initial user namespace (or
// an RLIMIT_NICE of 20, which no distribution sets): a root host has it, a
// container without that capability does not. mayLeaveIdle asks the kernel
// once per pool; without it nothing here runs and creation keeps the
// default policy, the gate alone holding it back.
//
// The policy is set by process id (sched_setscheduler has no pidfd form).
// The pids are those of the zygote, until the pool closes (a closed pool
// forgets it before reaping it), and of children that have not run a
// byte of untrusted code; a pid could name another process only if one of
// them died, was reaped and its pid was recycled across the whole pid
// space between the pool's check and the call.

const (
	schedOther = 0 // SCHED_OTHER (SCHED_NORMAL)
	schedIdle  = 5 // SCHED_IDLE
)

// setPolicy sets the scheduling policy of the task pid, with the priority
// 0 both policies take.
func setPolicy(pid, policy int) syscall.Errno {
	var param struct{ priority int32 }
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_SETSCHEDULER, uintptr(pid), uintptr(policy), uintptr(unsafe.Pointer(&param)))
	return errno
}

// mayLeaveIdle reports whether this process may take a task back out of
// SCHED_IDLE. The kernel allows that to a caller with CAP_SYS_NICE, or
// within the task's RLIMIT_NICE, the same rule as for lowering a nice
// value; so it asks the kernel to lower the calling thread's nice value by
// one, and puts it back. (Trying SCHED_IDLE itself would leave the thread
// stuck there when the answer is no, and ending the thread instead would
// send the parent-death signal of every process it had started, the
// zygote's among them.)
func mayLeaveIdle() bool {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return mayRaiseHere()
}

// mayRaiseHere is mayLeaveIdle on the calling thread, which must be locked
// to it.
func mayRaiseHere() bool {
	tid := syscall.Gettid()
	// The raw getpriority returns 20 minus the nice value.
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return false
	}
	nice := 20 - raw
	if nice <= -20 {
		return true // only a privileged caller could have set it so low
	}
	if syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice-1) != nil {
		return false
	}
	syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice) // raising it is always allowed
	return true
}

// creationPriority moves the zygote and the starting children between
// SCHED_IDLE and SCHED_OTHER. Its methods run under the creation gate's
// lock; a nil *creationPriority does nothing.
type creationPriority struct {
	zygote     int  // the zygote's pid in this process's namespace; 0 once forgotten
	background bool // the zygote and the starting children run SCHED_IDLE
}

// newCreationPriority is the priority of a pool whose zygote has pid
// zygote: nil when this process may not take a task out of SCHED_IDLE.
func newCreationPriority(zygote int) *creationPriority {
	if zygote <= 0 || !mayLeaveIdle() {
		return nil
	}
	return &creationPriority{zygote: zygote}
}

func (cp *creationPriority) policy() int {
	if cp.background {
		return schedIdle
	}
	return schedOther
}

// follow puts the zygote and every starting child in the background or
// the foreground.
func (cp *creationPriority) follow(background bool, starting map[*child]startState) {
	if cp == nil || cp.background == background {
		return
	}
	cp.background = background
	if cp.zygote > 0 {
		setPolicy(cp.zygote, cp.policy())
	}
	for c := range starting {
		if pid := c.hostPIDOnce(); pid > 0 {
			setPolicy(pid, cp.policy())
		}
	}
}

// arrived gives a new child the policy of the moment (it has the zygote's
// policy at its fork, which may have changed since).
func (cp *creationPriority) arrived(c *child) {
	if cp == nil {
		return
	}
	if pid := c.hostPIDOnce(); pid > 0 {
		setPolicy(pid, cp.policy())
	}
}

// forget stops setting the zygote's policy: it is about to be reaped.
func (cp *creationPriority) forget() {
	if cp != nil {
		cp.zygote = 0
	}
}

// taken runs a taken child SCHED_OTHER, before its execution begins. It
// needs no lock: c has left the gate, and cp's fields are not read.
func (cp *creationPriority) taken(c *child) {
	if cp == nil {
		return
	}
	if pid := c.hostPIDOnce(); pid > 0 {
		setPolicy(pid, schedOther)
	}
}
