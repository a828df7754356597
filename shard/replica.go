package shard

import (
	"errors"
	"fmt"
)

// Replica is one replica's place among the exporter's replicas.
type Replica struct {
	Index, Count int
}

// Resolve checks the --shard.* flags and resolves the index: the flag's, or
// the ordinal of the host name that hostname (os.Hostname) gives.
func Resolve(count, index int, indexSet, fromHostname bool, hostname func() (string, error)) (Replica, error) {
	if fromHostname {
		if indexSet {
			return Replica{}, errors.New("--shard.index and --shard.from-hostname: give one, not both")
		}
		host, err := hostname()
		if err != nil {
			return Replica{}, fmt.Errorf("--shard.from-hostname: %w", err)
		}
		if index, err = FromHostname(host); err != nil {
			return Replica{}, fmt.Errorf("--shard.from-hostname: %w", err)
		}
	}
	if err := Check(index, count); err != nil {
		return Replica{}, fmt.Errorf("--shard.index %d with --shard.count %d: %w", index, count, err)
	}
	return Replica{Index: index, Count: count}, nil
}

// Owns reports whether the account named name is this replica's.
func (r Replica) Owns(name string) bool {
	return Of(name, r.Count) == r.Index
}
