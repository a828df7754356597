package ledger

import (
	"cmp"
	"slices"
)

// Page is one page of a poll, as PollCheck needs it.
type Page struct {
	Records []Record
	// Others identify rows of the page that are not records (malformed rows
	// the poll skipped): they count toward meta.total all the same.
	Others []string
	// Total is meta.total as the exchange sent it.
	Total int
}

// recordID is what identifies a record within one poll: its id and a hash
// of its token and type (a collision only makes a poll look short).
type recordID struct {
	id, kind uint64
}

func recordIDOf(r Record) recordID {
	// FNV-1a, inline: no allocation per row.
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(r.Token); i++ {
		h = (h ^ uint64(r.Token[i])) * prime
	}
	h *= prime // a zero byte between the two
	for i := 0; i < len(r.Type); i++ {
		h = (h ^ uint64(r.Type[i])) * prime
	}
	return recordID{uint64(r.ID), h}
}

// PollCheck tells whether the pages of one poll formed a consistent result:
// meta.total the same on every page and at least that many distinct
// records. When records appear or vanish while the exporter pages, rows can
// shift between pages and one may be skipped; the cursor must then stay put.
type PollCheck struct {
	pages   int
	total   int
	changed bool
	// ids are the records seen, distinct once sorted is set: a slice, not
	// a set, as a thousand accounts' first polls hold theirs at once.
	ids    []recordID
	sorted bool
	others map[string]struct{}
}

// Page records one page as the exchange sent it.
func (c *PollCheck) Page(p Page) {
	if c.pages == 0 {
		c.total = p.Total
	} else if p.Total != c.total {
		c.changed = true
	}
	c.pages++
	for _, r := range p.Records {
		c.ids = append(c.ids, recordIDOf(r))
	}
	c.sorted = c.sorted && len(p.Records) == 0
	for _, o := range p.Others {
		if c.others == nil {
			c.others = map[string]struct{}{}
		}
		c.others[o] = struct{}{}
	}
}

// Consistent reports whether the pages seen so far can be trusted to hold
// every record of the query window. More distinct records than meta.total is
// fine: paging on finds the rows an understated total leaves out.
func (c *PollCheck) Consistent() bool {
	return c.steady() && c.Distinct() >= c.total
}

// Short reports whether meta.total held steady but fewer distinct records
// arrived: a read the poll may complete in smaller slices.
func (c *PollCheck) Short() bool { return c.steady() && c.Distinct() < c.total }

// steady reports whether pages arrived and meta.total was the same on each.
func (c *PollCheck) steady() bool { return c.pages > 0 && !c.changed }

// Changed reports whether meta.total changed between pages.
func (c *PollCheck) Changed() bool { return c.changed }

// Distinct is the number of distinct records (and other rows) seen.
func (c *PollCheck) Distinct() int {
	if !c.sorted {
		slices.SortFunc(c.ids, func(a, b recordID) int {
			return cmp.Or(cmp.Compare(a.id, b.id), cmp.Compare(a.kind, b.kind))
		})
		c.ids, c.sorted = slices.Compact(c.ids), true
	}
	return len(c.ids) + len(c.others)
}

// Total is meta.total of the first page.
func (c *PollCheck) Total() int { return c.total }
