package changelogcheck

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Unreleased is the heading of the changes not yet in a release; cutting
// vX.Y.Z renames it to "X.Y.Z / YYYY-MM-DD".
const Unreleased = "main / unreleased"

// kinds in the order a section lists them, as Prometheus projects do.
var kinds = []string{"CHANGE", "FEATURE", "ENHANCEMENT", "BUGFIX", "SECURITY"}

var (
	releaseHeading = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+) / (\d{4}-\d{2}-\d{2})$`)
	entry          = regexp.MustCompile(`^\* \[([A-Z]+)\] \S`)
)

// problems reads a changelog and returns what keeps a release from being cut
// from it, one line each, naming the line.
func problems(text string) []string {
	var out []string
	var section string
	var prev []int // the version of the last released section
	kind, sections := -1, 0
	inSubsection := false
	for i, line := range strings.Split(text, "\n") {
		at := fmt.Sprintf("CHANGELOG.md:%d", i+1)
		switch {
		case strings.HasPrefix(line, "## "):
			section = strings.TrimPrefix(line, "## ")
			kind, inSubsection = -1, false
			if section == "Versions and tags" {
				section = ""
				continue
			}
			sections++
			if section == Unreleased {
				if sections != 1 {
					out = append(out, fmt.Sprintf("%s: %q must be the first section", at, Unreleased))
				}
				continue
			}
			m := releaseHeading.FindStringSubmatch(section)
			if m == nil {
				out = append(out, fmt.Sprintf("%s: heading %q is neither %q nor \"X.Y.Z / YYYY-MM-DD\"", at, section, Unreleased))
				continue
			}
			if _, err := time.Parse(time.DateOnly, m[4]); err != nil {
				out = append(out, fmt.Sprintf("%s: %q: the date is not a date: %v", at, section, err))
			}
			v := make([]int, 3)
			for j := range v {
				v[j], _ = strconv.Atoi(m[j+1])
			}
			if prev != nil && slices.Compare(v, prev) >= 0 {
				out = append(out, fmt.Sprintf("%s: version %s is not below the one above it", at, strings.Join(m[1:4], ".")))
			}
			prev = v
		case strings.HasPrefix(line, "### "):
			inSubsection = true
		case section != "" && !inSubsection && strings.HasPrefix(line, "* "):
			m := entry.FindStringSubmatch(line)
			if m == nil {
				out = append(out, fmt.Sprintf("%s: an entry starts \"* [KIND] \"", at))
				continue
			}
			k := slices.Index(kinds, m[1])
			switch {
			case k < 0:
				out = append(out, fmt.Sprintf("%s: unknown kind [%s]; one of %s", at, m[1], strings.Join(kinds, ", ")))
			case k < kind:
				out = append(out, fmt.Sprintf("%s: [%s] after [%s]: within a section the order is %s", at, m[1], kinds[kind], strings.Join(kinds, ", ")))
			default:
				kind = k
			}
		}
	}
	if sections == 0 {
		out = append(out, fmt.Sprintf("CHANGELOG.md: no section; the first is %q", Unreleased))
	}
	return out
}

func TestChangelogCanBeCutIntoARelease(t *testing.T) {
	b, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems(string(b)) {
		t.Error(p)
	}
}

func TestChangelogCheckFails(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"unreleased below a release", "## 0.1.0 / 2026-11-26\n\n## main / unreleased\n",
			`CHANGELOG.md:3: "main / unreleased" must be the first section`},
		{"heading without date", "## 0.1.0 / not yet tagged\n",
			`CHANGELOG.md:1: heading "0.1.0 / not yet tagged" is neither "main / unreleased" nor "X.Y.Z / YYYY-MM-DD"`},
		{"impossible date", "## 0.1.0 / 2026-13-01\n", `CHANGELOG.md:1: "0.1.0 / 2026-13-01": the date is not a date`},
		{"versions rising", "## 0.1.0 / 2026-11-26\n## 0.2.0 / 2026-12-01\n", "CHANGELOG.md:2: version 0.2.0 is not below the one above it"},
		{"kinds out of order", "## main / unreleased\n* [BUGFIX] a\n* [FEATURE] b\n",
			"CHANGELOG.md:3: [FEATURE] after [BUGFIX]"},
		{"unknown kind", "## main / unreleased\n* [FIX] a\n", "CHANGELOG.md:2: unknown kind [FIX]"},
		{"entry without kind", "## main / unreleased\n* a fix\n", `CHANGELOG.md:2: an entry starts "* [KIND] "`},
		{"no section", "# Changelog\n", "no section"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := problems(tc.text)
			if !slices.ContainsFunc(got, func(p string) bool { return strings.Contains(p, tc.want) }) {
				t.Errorf("got %q, want a problem containing %q", got, tc.want)
			}
		})
	}
	good := "# Changelog\n## Versions and tags\n- x\n## main / unreleased\n* [CHANGE] a\n* [FEATURE] b\n### Notes\n* free text\n## 0.2.0 / 2026-12-01\n* [SECURITY] c\n## 0.1.0 / 2026-11-26\n"
	if got := problems(good); len(got) != 0 {
		t.Errorf("a good changelog: got %q, want no problem", got)
	}
}
