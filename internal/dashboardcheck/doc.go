// Package dashboardcheck holds no code: its tests hold the Grafana dashboard,
// dashboards/woox_exporter.json, to what Grafana, the linter rules of
// grafana/dashboard-linter and Prometheus need of it. Every panel and target
// reads the ${datasource} variable, every panel has a unique id, a title, a
// description, a unit and a query; the variables the panels use exist; every
// selector filters on job, instance and, where the metric has them, account
// and token; rate() runs over $__rate_interval, counters only inside
// rate()/increase(); the file is in grafana.com's export format; and every
// query, with the variables replaced, parses as PromQL (promtool).
//
// Each check is a function returning the problems it finds, one line each
// naming the panel (id and title), variable or field at fault, so that a test
// can run it on the shipped file and on a broken copy.
package dashboardcheck
