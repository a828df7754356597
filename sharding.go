package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/woox-exporter/woox_exporter/config"
	"github.com/woox-exporter/woox_exporter/shard"
)

// hostname is os.Hostname, replaced in tests.
var hostname = os.Hostname

// sharding is this replica's place among the exporter's replicas.
type sharding struct {
	index, count int
}

// shardFlags checks the --shard.* flags and resolves the index.
func shardFlags(count, index int, indexSet, fromHostname bool) (sharding, error) {
	if fromHostname {
		if indexSet {
			return sharding{}, errors.New("--shard.index and --shard.from-hostname: give one, not both")
		}
		host, err := hostname()
		if err != nil {
			return sharding{}, fmt.Errorf("--shard.from-hostname: %w", err)
		}
		if index, err = shard.FromHostname(host); err != nil {
			return sharding{}, fmt.Errorf("--shard.from-hostname: %w", err)
		}
	}
	if err := shard.Check(index, count); err != nil {
		return sharding{}, fmt.Errorf("--shard.index %d with --shard.count %d: %w", index, count, err)
	}
	return sharding{index: index, count: count}, nil
}

// accounts keeps the accounts of this shard.
func (s sharding) accounts(all []config.Account) []config.Account {
	var mine []config.Account
	for _, a := range all {
		if shard.Of(a.Name, s.count) == s.index {
			mine = append(mine, a)
		}
	}
	return mine
}
