// Package dashboard reads a Grafana dashboard as the checks and the
// end-to-end test need it: its panels (those inside collapsed rows too), its
// variables, and its PromQL expressions with Grafana's variables replaced so
// that they can be sent to Prometheus as they are.
package dashboard

import (
	"encoding/json"
	"fmt"
	"os"
)

// Dashboard is the part of a Grafana dashboard JSON the checks read.
type Dashboard struct {
	UID         string  `json:"uid"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Editable    *bool   `json:"editable"`
	Panels      []Panel `json:"panels"`
	Templating  struct {
		List []Variable `json:"list"`
	} `json:"templating"`
	Inputs   []Input   `json:"__inputs"`
	Requires []Require `json:"__requires"`
}

// Panel is one panel; a row holds the panels collapsed into it.
type Panel struct {
	ID          *int        `json:"id"`
	Type        string      `json:"type"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Datasource  *Datasource `json:"datasource"`
	Targets     []Target    `json:"targets"`
	FieldConfig struct {
		Defaults struct {
			Unit string `json:"unit"`
		} `json:"defaults"`
	} `json:"fieldConfig"`
	Panels []Panel `json:"panels"`
}

// Target is one query of a panel.
type Target struct {
	RefID      string      `json:"refId"`
	Expr       string      `json:"expr"`
	Datasource *Datasource `json:"datasource"`
}

// Datasource names a data source by uid; Grafana also accepts a bare string,
// read into UID.
type Datasource struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

// UnmarshalJSON reads an object or a string.
func (d *Datasource) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		d.UID = s
		return nil
	}
	type plain Datasource
	return json.Unmarshal(b, (*plain)(d))
}

// Variable is one template variable.
type Variable struct {
	Name       string      `json:"name"`
	Type       string      `json:"type"`
	Label      string      `json:"label"`
	Definition string      `json:"definition"`
	Query      VarQuery    `json:"query"`
	Datasource *Datasource `json:"datasource"`
	Multi      bool        `json:"multi"`
	IncludeAll bool        `json:"includeAll"`
	AllValue   string      `json:"allValue"`
	Refresh    int         `json:"refresh"`
}

// VarQuery is a variable's query: a string, or an object whose query field
// holds it (Grafana's Prometheus query editor).
type VarQuery string

// UnmarshalJSON reads a string or {"query": "..."}.
func (q *VarQuery) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*q = VarQuery(s)
		return nil
	}
	var o struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*q = VarQuery(o.Query)
	return nil
}

// Input is an entry of __inputs, grafana.com's export format.
type Input struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	PluginID string `json:"pluginId"`
}

// Require is an entry of __requires.
type Require struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// Load reads the dashboard at path.
func Load(path string) (*Dashboard, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var d Dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("read dashboard %s: %w", path, err)
	}
	return &d, nil
}

// AllPanels lists the panels at the top level, then those inside each row,
// in the order of the file.
func (d *Dashboard) AllPanels() []Panel {
	var all []Panel
	all = append(all, d.Panels...)
	for _, p := range d.Panels {
		all = append(all, p.Panels...)
	}
	return all
}

// PanelByID is the panel with the given id; ok is false when none has it.
func (d *Dashboard) PanelByID(id int) (p Panel, ok bool) {
	for _, p := range d.AllPanels() {
		if p.ID != nil && *p.ID == id {
			return p, true
		}
	}
	return Panel{}, false
}

// Variable is the template variable named name; ok is false when none is.
func (d *Dashboard) Variable(name string) (v Variable, ok bool) {
	for _, v := range d.Templating.List {
		if v.Name == name {
			return v, true
		}
	}
	return Variable{}, false
}
