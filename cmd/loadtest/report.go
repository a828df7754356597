package main

import (
	"fmt"
	"strconv"
	"time"
)

// report collects the figures and prints each as it comes.
type report struct {
	hardFailed, softFailed bool
}

// add prints one figure, got beside ref, with PASS or FAIL by ok; a hard
// FAIL fails the run, a report-only one only with --strict.
func (r *report) add(name string, got, ref any, unit string, ok, hard bool, note string) {
	verdict := "PASS"
	if !ok {
		verdict = "FAIL"
		if hard {
			r.hardFailed = true
		} else {
			r.softFailed = true
		}
	}
	kind := "report"
	if hard {
		kind = "hard"
	}
	fmt.Printf("%-4s [%-6s] %-58s %s vs %s %s %s\n", verdict, kind, name, format(got), format(ref), unit, note)
}

// ratio adds got beside ref with their ratio; target says whether
// maxRatio is a target to pass.
func (r *report) ratio(name string, got, ref time.Duration, maxRatio float64, target, hard bool) {
	ratio := got.Seconds() / ref.Seconds()
	note := fmt.Sprintf("ratio %.2f", ratio)
	if target {
		note += fmt.Sprintf(", target <= %.2f", maxRatio)
	}
	r.add(name, got, ref, "", !target || ratio <= maxRatio, hard, note)
}

// failed says whether the run fails: a hard FAIL, or any FAIL when strict.
func (r *report) failed(strict bool) bool { return r.hardFailed || (strict && r.softFailed) }

// format prints a figure: durations to 10 µs, floats to one decimal.
func format(v any) string {
	switch v := v.(type) {
	case time.Duration:
		return v.Round(10 * time.Microsecond).String()
	case float64:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return fmt.Sprint(v)
}

// ratioText is a/b with two decimals, or n/a when b is 0.
func ratioText(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// mb converts bytes to megabytes (10^6 bytes).
func mb(bytes int64) float64 { return float64(bytes) / 1e6 }
