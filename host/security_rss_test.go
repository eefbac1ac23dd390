package host_test

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// rssPeak measures how far this process's resident set grows while run
// runs: the kernel's high-water mark (VmHWM) is reset first (clear_refs 5),
// so the figure is the peak during run, not a sample that could miss it.
// Run it with nothing else running in the process.
func rssPeak(run func()) (growthKiB int, err error) {
	runtime.GC()
	debug.FreeOSMemory()
	before, err := procStatusKiB("VmRSS")
	if err != nil {
		return 0, err
	}
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return 0, fmt.Errorf("cannot reset the RSS high-water mark: %w", err)
	}
	run()
	peak, err := procStatusKiB("VmHWM")
	if err != nil {
		return 0, err
	}
	return peak - before, nil
}

func procStatusKiB(field string) (int, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	scan := bufio.NewScanner(f)
	for scan.Scan() {
		if value, ok := strings.CutPrefix(scan.Text(), field+":"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(value), " kB"))
		}
	}
	return 0, fmt.Errorf("no %s in /proc/self/status", field)
}
