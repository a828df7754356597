package shard

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestCollector(t *testing.T) {
	want := `# HELP woox_exporter_shard_count Number of replicas the accounts are split across (--shard.count); replicas of one job must agree.
# TYPE woox_exporter_shard_count gauge
woox_exporter_shard_count 3
# HELP woox_exporter_shard_index This replica's shard, 0 to woox_exporter_shard_count - 1 (--shard.index).
# TYPE woox_exporter_shard_index gauge
woox_exporter_shard_index 2
`
	if err := testutil.CollectAndCompare(Collector(2, 3), strings.NewReader(want)); err != nil {
		t.Error(err)
	}
}
