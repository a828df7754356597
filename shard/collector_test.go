package shard

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestCollector(t *testing.T) {
	want := `# HELP woox_exporter_shard_ordinal This replica's shard, 0 to woox_exporter_total_shards - 1 (--shard.index).
# TYPE woox_exporter_shard_ordinal gauge
woox_exporter_shard_ordinal 2
# HELP woox_exporter_total_shards Number of replicas the accounts are split across (--shard.count); replicas of one job must agree.
# TYPE woox_exporter_total_shards gauge
woox_exporter_total_shards 3
`
	if err := testutil.CollectAndCompare(Collector(2, 3), strings.NewReader(want)); err != nil {
		t.Error(err)
	}
}
