package dashboardcheck

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The README's table of the dashboard's rows names every row of the shipped
// dashboard, in its order.
func TestReadmeTableListsEveryRow(t *testing.T) {
	var rows []string
	for _, p := range load(t).Panels {
		if p.Type == "row" {
			rows = append(rows, p.Title)
		}
	}
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "\n| Row | Shows |\n|---|---|\n")
	if !ok {
		t.Fatal("README.md has no table headed | Row | Shows |")
	}
	var listed []string
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| ") {
			break
		}
		cells := strings.Split(line, " | ")
		listed = append(listed, strings.TrimPrefix(cells[0], "| "))
	}
	if !slices.Equal(listed, rows) {
		t.Errorf("README.md's dashboard table lists the rows\n  %q\nthe dashboard has\n  %q", listed, rows)
	}
}
