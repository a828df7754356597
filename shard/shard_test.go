package shard

import (
	"fmt"
	"testing"
)

func TestOfIsStableAndSpreads(t *testing.T) {
	const n = 1000
	for _, count := range []int{1, 2, 3, 7} {
		per := make([]int, count)
		for i := range n {
			name := fmt.Sprintf("account-%d", i)
			s := Of(name, count)
			if s < 0 || s >= count {
				t.Fatalf("Of(%q, %d) = %d", name, count, s)
			}
			if again := Of(name, count); again != s {
				t.Fatalf("Of(%q, %d) is %d, then %d", name, count, s, again)
			}
			per[s]++
		}
		for s, k := range per {
			// A fair hash puts n/count ± a few standard deviations on each.
			if want := n / count; k < want*7/10 || k > want*13/10 {
				t.Errorf("count %d: shard %d holds %d of %d accounts", count, s, k, n)
			}
		}
	}
}

// The hash must not change between versions, or an upgrade would move
// accounts between replicas: FNV-1a 64 of the name, modulo the count,
// computed independently.
func TestOfPinnedValues(t *testing.T) {
	for _, tc := range []struct {
		name        string
		count, want int
	}{
		{"main", 2, 0}, {"main", 3, 2}, {"sub", 2, 1}, {"sub", 3, 0}, {"desk-a", 2, 0}, {"desk-a", 3, 2}, {"", 3, 2},
	} {
		if got := Of(tc.name, tc.count); got != tc.want {
			t.Errorf("Of(%q, %d) = %d, want %d", tc.name, tc.count, got, tc.want)
		}
	}
}

func TestFromHostname(t *testing.T) {
	for host, want := range map[string]int{"woox-exporter-0": 0, "woox-exporter-12": 12, "a-3.svc.cluster.local": 3} {
		if got, err := FromHostname(host); err != nil || got != want {
			t.Errorf("FromHostname(%q) = %d, %v; want %d", host, got, err, want)
		}
	}
	for _, host := range []string{"woox-exporter", "woox-exporter-", "woox-exporter-x", "host", "", "a-+1"} {
		if _, err := FromHostname(host); err == nil {
			t.Errorf("FromHostname(%q) accepted", host)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		index, count int
		ok           bool
	}{{0, 1, true}, {1, 2, true}, {2, 2, false}, {-1, 2, false}, {0, 0, false}} {
		if err := Check(tc.index, tc.count); (err == nil) != tc.ok {
			t.Errorf("Check(%d, %d) = %v", tc.index, tc.count, err)
		}
	}
}
