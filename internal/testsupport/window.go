package testsupport

import (
	"slices"
	"time"
)

// BusiestWindow is the most of times within any one span of window: what a
// sliding-window rate limit of that window counts at its fullest.
func BusiestWindow(times []time.Time, window time.Duration) int {
	s := slices.SortedFunc(slices.Values(times), time.Time.Compare)
	worst := 0
	for i := range s {
		j := i
		for j < len(s) && s[j].Sub(s[i]) < window {
			j++
		}
		worst = max(worst, j-i)
	}
	return worst
}
