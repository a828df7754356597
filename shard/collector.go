package shard

import "github.com/prometheus/client_golang/prometheus"

var (
	ordinalDesc = prometheus.NewDesc("woox_exporter_shard_ordinal",
		"This replica's shard, 0 to woox_exporter_total_shards - 1 (--shard.index).", nil, nil)
	totalDesc = prometheus.NewDesc("woox_exporter_total_shards",
		"Number of replicas the accounts are split across (--shard.count); replicas of one job must agree.", nil, nil)
)

// Collector exports a replica's shard index and count.
func Collector(index, count int) prometheus.Collector {
	return collector{index: index, count: count}
}

type collector struct {
	index, count int
}

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- ordinalDesc
	ch <- totalDesc
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(ordinalDesc, prometheus.GaugeValue, float64(c.index))
	ch <- prometheus.MustNewConstMetric(totalDesc, prometheus.GaugeValue, float64(c.count))
}
