package main

import (
	"fmt"
	"time"
)

// startupPairs prints, for every build measured in the same rounds as this
// one (the last of builds), its CPU per process minus this build's, round by
// round: what a change costs or saves in each mode, and how far the two
// builds' eager-minus-off differ, each the median of the per-round
// differences with its 95% interval. With -startup-aa one of those builds is
// this very build again: its row, whose true value is zero in every column,
// is the calibration, the width any difference needs to be seen at this load.
func startupPairs(builds []*startupBuild) {
	if len(builds) < 2 {
		return
	}
	this := builds[len(builds)-1]
	fmt.Println("| build minus this build, CPU per process | `--native off` (95% CI) | `--native eager` (95% CI) | " +
		"eager minus off (95% CI) |")
	fmt.Println("| --- | ---: | ---: | ---: |")
	for _, b := range builds[:len(builds)-1] {
		var off, eager, native []time.Duration
		for i := range b.off {
			off = append(off, b.off[i].cpu-this.off[i].cpu)
			eager = append(eager, b.eager[i].cpu-this.eager[i].cpu)
			native = append(native, (b.eager[i].cpu-b.off[i].cpu)-(this.eager[i].cpu-this.off[i].cpu))
		}
		fmt.Printf("| %s | %s | %s | %s |\n", b.label, withInterval(off), withInterval(eager), withInterval(native))
	}
	fmt.Println()
}

// withInterval is the median of values and its 95% interval.
func withInterval(values []time.Duration) string {
	low, high := medianInterval(values)
	return fmt.Sprintf("**%s** (%s to %s)", ms(medianOf(values)), ms(low), ms(high))
}
