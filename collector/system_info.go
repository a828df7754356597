package collector

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

var (
	exchangeStatusDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "exchange", "status"),
		"The exchange's system status: 1 for the current one, 0 for the others; "+
			"status is normal, trading_maintenance, system_maintenance, or the exchange's code for an unknown one."+refreshed,
		[]string{"status"}, nil)

	exchangeMaintenanceEndDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "exchange", "maintenance_end_timestamp_seconds"),
		"Unix time the exchange expects its maintenance to end; only while maintenance is announced."+refreshed,
		nil, nil)

	// knownStatuses are always exported, so a change of state is a change
	// of value, not a series that appears.
	knownStatuses = []struct {
		code  int
		label string
	}{
		{client.SystemNormal, "normal"},
		{client.SystemTradingMaintenance, "trading_maintenance"},
		{client.SystemMaintenance, "system_maintenance"},
	}
)

// SystemInfoAPI reads the exchange's public system status.
type SystemInfoAPI interface {
	SystemInfo(ctx context.Context) (client.SystemInfo, error)
}

// SystemInfoCollector exports the exchange's system status as last polled.
type SystemInfoCollector struct {
	api  SystemInfoAPI
	info atomic.Pointer[client.SystemInfo]
	// changes counts the polls whose answer differed from the previous one.
	changes atomic.Uint64
}

var _ prometheus.Collector = (*SystemInfoCollector)(nil)

func init() { register(endpoint.SystemInfo, buildSystemInfo) }

// buildSystemInfo polls the public system status once per exporter, when
// the public API can read it.
func buildSystemInfo(b *builder) (prometheus.Collector, error) {
	api, ok := b.cfg.Public.(SystemInfoAPI)
	if b.cfg.Public == nil || !ok {
		return nil, nil
	}
	c := &SystemInfoCollector{api: api}
	b.poll(c, "", c.poll)
	return c, nil
}

func (c *SystemInfoCollector) poll(ctx context.Context, _ func()) error {
	info, err := c.api.SystemInfo(ctx)
	if err != nil {
		return err
	}
	if old := c.info.Load(); old == nil || *old != info {
		c.info.Store(&info)
		c.changes.Add(1)
	}
	return nil
}

// generation changes when the status does, so an unchanged one is not
// regathered.
func (c *SystemInfoCollector) generation() uint64 { return c.changes.Load() }

// Describe implements prometheus.Collector.
func (c *SystemInfoCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- exchangeStatusDesc
	ch <- exchangeMaintenanceEndDesc
}

// Collect implements prometheus.Collector.
func (c *SystemInfoCollector) Collect(ch chan<- prometheus.Metric) {
	info := c.info.Load()
	if info == nil {
		return
	}
	known := false
	for _, s := range knownStatuses {
		known = known || s.code == info.Status
		ch <- prometheus.MustNewConstMetric(exchangeStatusDesc, prometheus.GaugeValue, boolFloat(s.code == info.Status), s.label)
	}
	if !known {
		ch <- prometheus.MustNewConstMetric(exchangeStatusDesc, prometheus.GaugeValue, 1, strconv.Itoa(info.Status))
	}
	if info.Status != client.SystemNormal && info.EstimatedEndTime > 0 {
		ch <- prometheus.MustNewConstMetric(exchangeMaintenanceEndDesc, prometheus.GaugeValue, float64(info.EstimatedEndTime)/1000)
	}
}
