// Package examplescheck holds no code: its tests hold the example stack in
// examples/ to working order. Prometheus' configuration loads (promtool,
// with the rules of alerts/ where the container mounts them), so does
// Alertmanager's (amtool) and the compose file (docker-compose); Grafana's
// provisioning points at the Prometheus service and at the dashboards the
// compose file mounts; Grafana starts through the guard that refuses a
// missing, unreadable or empty admin password; no service waits long on
// others' health checks before it starts; and the exporter's default
// port is the one the Dockerfile, Prometheus and compose use.
//
// Each check is a function returning the problems it finds, one line each
// naming the file at fault, so that a test can run it on the shipped files
// and on a broken copy. The checks that run a tool skip, naming it, when it
// is not installed; CI installs them all.
package examplescheck
