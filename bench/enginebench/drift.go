package main

import (
	"fmt"
	"sort"
	"time"
)

// A shared VM changes speed over seconds: in one run of the paced section
// the median of a round of executions can be twice that of another round,
// for every peer alike. The pooled p99 / median then mixes the machine's
// drift with each engine's own tail. roundDrift separates the two: the
// spread of the round medians says how far the machine drifted, and the
// tail within rounds (each execution divided by the median of its own
// round, then the 99th percentile of those ratios) is the tail that is left
// once the drift is taken out. Both are reported beside the pooled figure,
// never instead of it.

// drift is one peer's rounds: the lowest and highest round median, and the
// 99th percentile of executions relative to their round's median.
type drift struct {
	lowest, highest time.Duration
	tailWithin      float64
}

// roundDrift reads samples as consecutive rounds of perRound executions
// (as interleaved returns them); samples is left as it is.
func roundDrift(samples []time.Duration, perRound int) drift {
	var d drift
	var relative []float64
	for start := 0; start+perRound <= len(samples); start += perRound {
		round := append([]time.Duration(nil), samples[start:start+perRound]...)
		sort.Slice(round, func(i, j int) bool { return round[i] < round[j] })
		median := round[len(round)/2]
		if d.lowest == 0 || median < d.lowest {
			d.lowest = median
		}
		d.highest = max(d.highest, median)
		for _, s := range round {
			relative = append(relative, float64(s)/float64(median))
		}
	}
	if len(relative) == 0 {
		return d
	}
	sort.Float64s(relative)
	d.tailWithin = relative[len(relative)*99/100]
	return d
}

func (d drift) String() string {
	return fmt.Sprintf("round medians %s-%s, p99 within rounds %.1fx", us(d.lowest), us(d.highest), d.tailWithin)
}
