// Command alertmatch matches alert specs against alerts as Prometheus
// (/api/v1/alerts, .data.alerts) and Alertmanager (/api/v2/alerts) list
// them, for scripts/e2e.sh.
//
//	alertmatch missing|present SPEC... <ALERTS
//
// ALERTS on standard input is one or more JSON arrays of alerts, each an
// object with a "labels" object. A SPEC is "Alertname label=value ...": it
// matches an alert with that alertname and each label equal to its value
// (an absent label equals no value). missing prints, one a line, the specs
// that match no alert; present prints those that match at least one. Exits
// 2 on a malformed spec or input.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "alertmatch:", err)
		os.Exit(2)
	}
}

func run(args []string, in io.Reader, out io.Writer) error {
	if len(args) < 1 || (args[0] != "missing" && args[0] != "present") {
		return errors.New("usage: alertmatch missing|present SPEC... <ALERTS")
	}
	want := args[0] == "present"
	specs := make([]spec, 0, len(args)-1)
	for _, s := range args[1:] {
		sp, err := parseSpec(s)
		if err != nil {
			return err
		}
		specs = append(specs, sp)
	}
	alerts, err := readAlerts(in)
	if err != nil {
		return err
	}
	for i, sp := range specs {
		if sp.matchesAny(alerts) == want {
			if _, err := fmt.Fprintln(out, args[1+i]); err != nil {
				return err
			}
		}
	}
	return nil
}

type alert struct {
	Labels map[string]string `json:"labels"`
}

// readAlerts reads every JSON array of alerts on r, concatenated.
func readAlerts(r io.Reader) ([]alert, error) {
	var all []alert
	dec := json.NewDecoder(r)
	for {
		var batch []alert
		err := dec.Decode(&batch)
		if errors.Is(err, io.EOF) {
			return all, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading alerts: %w", err)
		}
		all = append(all, batch...)
	}
}
