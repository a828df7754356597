package client_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// listEndpoint is what the test of unreadable rows needs of one list
// endpoint: its good rows in the scenario, one read through the client, and
// the row the client rejects when the fake serves one it cannot read.
type listEndpoint struct {
	fill func(s *fakeexchange.Scenario)
	read func(ctx context.Context, c *client.Client) (rows any, rejected []client.RejectedRow, err error)
	// unreadable is the rejected row's ID and Field.
	unreadable client.RejectedRow
}

// listEndpoints are the list endpoints by name: each endpoint's test file
// adds its own (addListEndpoint).
var listEndpoints = map[string]listEndpoint{}

func addListEndpoint(name string, l listEndpoint) bool {
	listEndpoints[name] = l
	return true
}

// readLists reads every list endpoint of the fake's account once: the rows
// read, and the rows rejected, by endpoint.
func readLists(t *testing.T, c *client.Client) (read map[string]any, rejected map[string][]client.RejectedRow) {
	t.Helper()
	read, rejected = map[string]any{}, map[string][]client.RejectedRow{}
	for name, l := range listEndpoints {
		rows, bad, err := l.read(context.Background(), c)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		read[name], rejected[name] = rows, bad
	}
	return read, rejected
}

// With one unreadable row on every list endpoint of the fake, in every
// reading of the API, each endpoint returns the rows it returns without it,
// and that row rejected, naming its field.
func TestTheFakesUnreadableRowsAreRejectedAlone(t *testing.T) {
	for _, endpoint := range fakeexchange.UnreadableEndpoints() {
		if _, ok := listEndpoints[endpoint]; !ok {
			t.Errorf("no expectation for the unreadable row of %s: add it in its test file (addListEndpoint)", endpoint)
		}
	}
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		for _, l := range listEndpoints {
			if l.fill != nil {
				l.fill(s)
			}
		}
		h := newHarness(t, s, fakeexchange.WithRateLimit(0, 0))
		c := h.client(t, nil)
		good, none := readLists(t, c)
		for endpoint := range listEndpoints {
			if len(none[endpoint]) != 0 {
				t.Fatalf("%s: rows rejected without unreadable rows: %+v", endpoint, none[endpoint])
			}
			if err := h.fake.Apply(fakeexchange.Event{UnreadableRows: &map[string]int{endpoint: 1}}); err != nil {
				t.Fatal(err)
			}
		}
		read, rejected := readLists(t, c)
		for endpoint, l := range listEndpoints {
			w := l.unreadable
			if !reflect.DeepEqual(read[endpoint], good[endpoint]) {
				t.Errorf("%s: read %+v, want %+v", endpoint, read[endpoint], good[endpoint])
			}
			if r := rejected[endpoint]; len(r) != 1 || r[0].Page != 1 || r[0].Index != 1 || r[0].ID != w.ID || r[0].Field != w.Field {
				t.Errorf("%s: rejected %+v, want page 1, row 1, id %q, field %q", endpoint, r, w.ID, w.Field)
			}
		}
	})
}
