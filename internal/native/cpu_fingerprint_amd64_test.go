package native

import (
	"encoding/binary"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The fingerprint reads the processor itself: its vendor is the one the
// kernel reports, and it is the same on every core (leaf 1's EBX, which
// differs from core to core, is left out), so the memo is found whichever
// core a process starts on.
func TestCPUFingerprintIsTheProcessorsOnEveryCore(t *testing.T) {
	_, b, c, d := cpuid(0, 0)
	vendor := make([]byte, 12)
	binary.LittleEndian.PutUint32(vendor[0:], b)
	binary.LittleEndian.PutUint32(vendor[4:], d)
	binary.LittleEndian.PutUint32(vendor[8:], c)
	if !strings.Contains(cpuIdentity(), "vendor_id\t: "+string(vendor)+"\n") {
		t.Fatalf("CPUID's vendor %q is not /proc/cpuinfo's:\n%s", vendor, cpuIdentity())
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		t.Fatal(err)
	}
	defer unix.SchedSetaffinity(0, &all)
	first, cores := "", 0
	for cpu := 0; cpu < 1024; cpu++ {
		if !all.IsSet(cpu) {
			continue
		}
		var one unix.CPUSet
		one.Set(cpu)
		if err := unix.SchedSetaffinity(0, &one); err != nil {
			t.Fatal(err)
		}
		got := cpuFingerprint()
		if first == "" {
			first = got
		} else if got != first {
			t.Fatalf("core %d: fingerprint %q, the first core's %q", cpu, got, first)
		}
		cores++
	}
	if cores == 0 || first == "" {
		t.Fatalf("no core to run on")
	}
}
