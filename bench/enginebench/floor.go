package main

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strings"
	"time"
)

// The guest interpreter section's headline figure, the floor: each peer's
// 10th-percentile round against python3's. What neighbours on a shared
// machine add to a round only ever slows it, so the fast rounds carry the
// interpreter's own speed, and the floor repeats from run to run where a
// median of rounds moves with the load. Its range is the interquartile range
// of the same figure over the rounds drawn again with replacement (a
// bootstrap): how far another run on the same process may land.

const (
	floorQuantile = 0.1
	redraws       = 1000
)

// printFloors prints the floor of every peer after the first (python3) per
// program and their geometric mean, and returns the worst geometric mean.
// perCall[i][k][r] is program i's figure under peer k in round r.
func printFloors(perCall [][][]time.Duration, peers []string, programs []computeProgram) float64 {
	rounds := len(perCall[0][0])
	draws := rand.New(rand.NewSource(1))    // the same redraws every run
	samples := [][]int{make([]int, rounds)} // samples[0]: the rounds as run
	for r := range samples[0] {
		samples[0][r] = r
	}
	for b := 0; b < redraws; b++ {
		rs := make([]int, rounds)
		for r := range rs {
			rs[r] = draws.Intn(rounds)
		}
		samples = append(samples, rs)
	}
	// floors[k][b][i]: peer k's floor for program i over sample b.
	floors := make([][][]float64, len(peers))
	for k := 1; k < len(peers); k++ {
		for _, rs := range samples {
			floors[k] = append(floors[k], floorRatios(perCall, k, rs))
		}
	}
	cell := func(k, i int) string { // i == -1: the geometric mean
		var redrawn []float64
		for _, f := range floors[k][1:] {
			redrawn = append(redrawn, pick(f, i))
		}
		return fmt.Sprintf("%.3fx [%.3f-%.3f]", pick(floors[k][0], i), quantile(redrawn, 0.25), quantile(redrawn, 0.75))
	}

	fmt.Printf("Floor: each peer's %.0fth-percentile round over python3's; in brackets the interquartile range "+
		"over %d bootstrap redraws of the rounds.\n\n", floorQuantile*100, redraws)
	fmt.Print("| program |")
	for _, name := range peers[1:] {
		fmt.Printf(" %s |", name)
	}
	fmt.Println()
	fmt.Print("| --- |" + strings.Repeat(" ---: |", len(peers)-1) + "\n")
	for i, prog := range programs {
		fmt.Printf("| %s |", prog.name)
		for k := 1; k < len(peers); k++ {
			fmt.Printf(" %s |", cell(k, i))
		}
		fmt.Println()
	}
	fmt.Print("| geometric mean |")
	worst := 0.0
	for k := 1; k < len(peers); k++ {
		fmt.Printf(" %s |", cell(k, -1))
		worst = math.Max(worst, pick(floors[k][0], -1))
	}
	fmt.Println()
	fmt.Println()
	return worst
}

// floorRatios is, per program, peer k's floorQuantile round figure over
// python3's, among the rounds rs (which may repeat).
func floorRatios(perCall [][][]time.Duration, k int, rs []int) []float64 {
	out := make([]float64, len(perCall))
	for i := range perCall {
		peer := make([]float64, len(rs))
		base := make([]float64, len(rs))
		for j, r := range rs {
			peer[j], base[j] = float64(perCall[i][k][r]), float64(perCall[i][0][r])
		}
		out[i] = quantile(peer, floorQuantile) / quantile(base, floorQuantile)
	}
	return out
}

// pick is ratios[i], or their geometric mean when i is -1.
func pick(ratios []float64, i int) float64 {
	if i >= 0 {
		return ratios[i]
	}
	sum := 0.0
	for _, r := range ratios {
		sum += math.Log(r)
	}
	return math.Exp(sum / float64(len(ratios)))
}

// spread is a ratio's median over the rounds with its interquartile range.
func spread(ratios []float64) string {
	return fmt.Sprintf("%.3fx [%.3f-%.3f]", quantile(ratios, 0.5), quantile(ratios, 0.25), quantile(ratios, 0.75))
}

// quantile interpolates linearly between the order statistics.
func quantile(values []float64, q float64) float64 {
	s := append([]float64(nil), values...)
	sort.Float64s(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}
