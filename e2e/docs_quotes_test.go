package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
)

// Prose restates the code too, one figure at a time: a flag's default in a
// runbook sentence, the endpoints in a list. These tests hold every such
// statement of the prose docs to the binary's --help and to
// endpoint.All. CHANGELOG.md is history and is not read.

// proseDocs are the prose docs by path relative to the repository, each
// with its lines joined by single spaces, so that a statement wrapped over
// two lines reads as one.
func proseDocs(t *testing.T) map[string]string {
	t.Helper()
	paths := []string{"README.md", "RUNBOOK.md"}
	for _, dir := range []string{"docs", "deploy"} {
		err := filepath.WalkDir(filepath.Join("..", dir), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				paths = append(paths, strings.TrimPrefix(p, "../"))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	docs := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(filepath.Join("..", p))
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = string(b)
	}
	return docs
}

var lineBreak = regexp.MustCompile(`\s*\n\s*`)

func joinLines(s string) string { return lineBreak.ReplaceAllString(s, " ") }

var (
	// helpFlag is a flag's line of --help: its name and, for a flag that
	// takes a value, its default (or its placeholder, when it has none).
	helpFlag = regexp.MustCompile(`^\s+(?:-\w, )?--(?:\[no-\])?([a-z0-9.-]+)(?:=("[^"]*"|\S+))?`)
	// helpSwitch is a boolean flag's default, in its help text.
	helpSwitch = regexp.MustCompile(`\(default: (enabled|disabled)\)`)

	// quotedDefault is "`--flag` (default V" or "`--flag`, default V": a
	// number may have thousands separators, a value may be in bold.
	quotedDefault = regexp.MustCompile("`--([a-z0-9.-]+)` ?[(,] ?default (?:is )?\\**(\\d{1,3}(?:,\\d{3})+|[^\\s,;:)*]+)")
	// quotedEvery is "every N UNIT (`--NAME.interval`)".
	quotedEvery = regexp.MustCompile("every (\\d+) ?(s|seconds?|m|minutes?|h|hours?) \\(`--([a-z0-9.-]+\\.interval)`\\)")
	// quotedSwitch is "`--collector.NAME` (on by default)".
	quotedSwitch = regexp.MustCompile("`--(?:\\[no-\\])?([a-z0-9.-]+)` \\((on|off) by default")
)

// helpDefaults runs --help and returns each flag's default as --help shows
// it (quotes removed): a boolean flag's is "on" or "off", when its help
// says.
func helpDefaults(t *testing.T) map[string]string {
	t.Helper()
	cmd := exec.Command(exportertest.Binary(t), "--help")
	cmd.Env = []string{"COLUMNS=100"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("--help: %v", err)
	}
	defaults := map[string]string{}
	var flag, text string
	done := func() {
		if m := helpSwitch.FindStringSubmatch(joinLines(text)); flag != "" && m != nil {
			defaults[flag] = map[string]string{"enabled": "on", "disabled": "off"}[m[1]]
		}
	}
	for line := range strings.Lines(string(out)) {
		if m := helpFlag.FindStringSubmatch(line); m != nil {
			done()
			flag, text = m[1], line
			if m[2] != "" {
				defaults[flag] = strings.Trim(m[2], `"`)
			}
			continue
		}
		text += line
	}
	done()
	if len(defaults) < 20 {
		t.Fatalf("read %d defaults from --help:\n%s", len(defaults), out)
	}
	return defaults
}

// sameValue reports whether a value quoted in the docs is the default
// --help shows: equal as text, as a number or as a duration.
func sameValue(quoted, help string) bool {
	quoted = strings.ReplaceAll(quoted, ",", "")
	if quoted == help {
		return true
	}
	if q, err := strconv.ParseFloat(quoted, 64); err == nil {
		h, err := strconv.ParseFloat(help, 64)
		return err == nil && q == h
	}
	q, err := model.ParseDuration(quoted)
	if err != nil {
		return false
	}
	h, err := model.ParseDuration(help)
	return err == nil && q == h
}

// TestDocsQuoteTheFlagDefaults: every default the prose docs quote beside a
// flag's name ("`--positions.interval` (default 5s)", "every 15 seconds
// (`--account-info.interval`)", "(off by default)") is the one --help
// shows, so that a changed default fails until every sentence quoting it
// is corrected.
func TestDocsQuoteTheFlagDefaults(t *testing.T) {
	defaults := helpDefaults(t)
	check := func(doc, flag, quoted, statement string) {
		help, ok := defaults[flag]
		switch {
		case !ok:
			t.Errorf("%s: %q quotes a default of --%s, which --help does not list with one", doc, statement, flag)
		case !sameValue(quoted, help):
			t.Errorf("%s: %q: --help says --%s defaults to %s", doc, statement, flag, help)
		}
	}
	found := 0
	for doc, text := range proseDocs(t) {
		text = joinLines(text)
		for _, m := range quotedDefault.FindAllStringSubmatch(text, -1) {
			check(doc, m[1], m[2], m[0])
		}
		for _, m := range quotedEvery.FindAllStringSubmatch(text, -1) {
			check(doc, m[3], m[1]+m[2][:1], m[0])
		}
		for _, m := range quotedSwitch.FindAllStringSubmatch(text, -1) {
			check(doc, m[1], m[2], m[0])
		}
		found += len(quotedDefault.FindAllString(text, -1)) + len(quotedEvery.FindAllString(text, -1))
	}
	if found < 10 {
		t.Errorf("found %d quoted defaults in the docs: is the pattern still right?", found)
	}
}

// TestDocsListEveryEndpoint: a paragraph of the prose docs that names most
// endpoints (the endpoint label's values, the endpoints an alert watches)
// names every one of endpoint.All, so that a new endpoint fails until
// each such list has it.
func TestDocsListEveryEndpoint(t *testing.T) {
	lists := 0
	for doc, text := range proseDocs(t) {
		for _, para := range regexp.MustCompile(`\n\s*\n`).Split(text, -1) {
			var named, missing []string
			for _, ep := range endpoint.All {
				if strings.Contains(para, "`"+ep.Name+"`") {
					named = append(named, ep.Name)
				} else {
					missing = append(missing, ep.Name)
				}
			}
			// A table of every endpoint is one paragraph per row here: only
			// prose lists count.
			if 2*len(named) <= len(endpoint.All) {
				continue
			}
			lists++
			if len(missing) > 0 {
				t.Errorf("%s: a list of the endpoints lacks %s:\n%s", doc, strings.Join(missing, ", "), para)
			}
		}
	}
	if lists < 3 {
		t.Errorf("found %d lists of the endpoints in the docs, want the endpoint label's and two alerts'", lists)
	}
}

// goVersion is a Go release quoted in prose: "Go 1.26.8".
var goVersion = regexp.MustCompile(`\bGo (1\.\d+(?:\.\d+)?)\b`)

// TestDocsQuoteGoModsGoVersion: a Go version the docs ask for is go.mod's
// go line, the oldest Go that builds the module.
func TestDocsQuoteGoModsGoVersion(t *testing.T) {
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	want := string(m[1])
	quoted := 0
	for doc, text := range proseDocs(t) {
		for _, q := range goVersion.FindAllStringSubmatch(joinLines(text), -1) {
			quoted++
			if q[1] != want {
				t.Errorf("%s: %q, go.mod needs Go %s", doc, q[0], want)
			}
		}
	}
	if quoted == 0 {
		t.Error("no doc says which Go builds the exporter")
	}
}
