// The woox_exporter monitoring mixin: alerts, the recording rule and the
// Grafana dashboard, with their settings in config.libsonnet.
(import 'config.libsonnet') +
(import 'alerts/alerts.libsonnet') +
(import 'dashboards/dashboards.libsonnet')
