// Package shard assigns accounts to the replicas of one exporter, as
// kube-state-metrics shards objects: each replica knows the shard count and
// its own index, and keeps the accounts whose hash falls on it. No replica
// talks to another.
package shard

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Of is the shard, 0 to count-1, that account name belongs to. It depends on
// the name and the count only: adding or removing an account never moves
// another one; changing the count moves some.
func Of(name string, count int) int {
	if count <= 1 {
		return 0
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(name))
	return int(h.Sum64() % uint64(count))
}

// FromHostname is the shard index a StatefulSet pod's host name carries:
// the number after its last "-" (woox-exporter-2 is shard 2).
func FromHostname(host string) (int, error) {
	host, _, _ = strings.Cut(host, ".")
	i := strings.LastIndexByte(host, '-')
	if i < 0 || i == len(host)-1 {
		return 0, fmt.Errorf("host name %q does not end in -N, the ordinal of a StatefulSet pod", host)
	}
	n, err := strconv.Atoi(host[i+1:])
	if err != nil || n < 0 || host[i+1] == '+' {
		return 0, fmt.Errorf("host name %q does not end in -N, the ordinal of a StatefulSet pod", host)
	}
	return n, nil
}

// Check reports whether index is a shard of count.
func Check(index, count int) error {
	switch {
	case count < 1:
		return errors.New("the shard count must be at least 1")
	case index < 0 || index >= count:
		return fmt.Errorf("shard index %d is not one of the %d shards (0 to %d)", index, count, count-1)
	}
	return nil
}
