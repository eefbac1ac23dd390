package wire

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spine-sandbox/spine/internal/testenv"
)

// The zygote's object arenas sit in transparent huge pages
// (guest-c/sandbox/arenas.c), so a fork copies a handful of entries for
// them instead of thousands. They stay huge only while the zygote never
// writes to them once children share them: it forks without running any
// Python (main.c). One write splits that huge page in the zygote for good,
// and the mapping's anonymous memory is then no longer all in huge pages.
func TestZygoteKeepsItsHugePagesAcrossForks(t *testing.T) {
	needHugePages(t)
	p, err := NewPool(Options{Binary: testenv.GuestBinary(t), Prefork: 2, MaxChildren: 4, MemoryBytes: 512 << 20, CPUSeconds: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	zygote := p.zygotePID()
	allHuge(t, "the ready zygote", zygote)
	for i := 0; i < 30; i++ {
		result, err := runWith(p, testTools(t), testManifest, fmt.Sprintf("result = add(X=%d, Y=1)", i), 60*time.Second)
		if err := valueIs(result, err, strconv.Itoa(i+1)); err != nil {
			t.Fatalf("execution %d: %v", i+1, err)
		}
	}
	allHuge(t, "the zygote after 30 forks", zygote)
}

// allHuge fails unless the mappings advised for huge pages (VmFlags "hg":
// the arenas' chunks, nothing else in the zygote) hold some anonymous
// memory, all of it in huge pages.
func allHuge(t *testing.T, who string, pid int) {
	t.Helper()
	anon, huge := advisedMemoryKB(t, pid)
	if anon < 2048 || huge != anon {
		t.Fatalf("%s: its mappings advised for huge pages hold %d kB of anonymous memory, %d kB of it in huge pages; want at least 2048 kB, all in huge pages", who, anon, huge)
	}
}

// needHugePages skips where the kernel gives no transparent huge pages on
// advice.
func needHugePages(t *testing.T) {
	t.Helper()
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("transparent huge pages are off on this kernel (%q, %v)", strings.TrimSpace(string(mode)), err)
	}
}

// advisedMemoryKB sums Anonymous and AnonHugePages over the mappings of
// /proc/PID/smaps whose VmFlags carry "hg" (MADV_HUGEPAGE).
func advisedMemoryKB(t *testing.T, pid int) (anon, huge int) {
	t.Helper()
	smaps, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps", pid))
	if errors.Is(err, fs.ErrPermission) {
		t.Skipf("the zygote's memory map is not readable here (it is not dumpable; reading it needs CAP_SYS_PTRACE): %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var mapAnon, mapHuge int
	for _, line := range strings.Split(string(smaps), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "Anonymous:":
			mapAnon, _ = strconv.Atoi(fields[1])
		case "AnonHugePages:":
			mapHuge, _ = strconv.Atoi(fields[1])
		case "VmFlags:": // the last line of each mapping
			if slices.Contains(fields[1:], "hg") {
				anon += mapAnon
				huge += mapHuge
			}
		}
	}
	return anon, huge
}
