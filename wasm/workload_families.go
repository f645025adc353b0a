package main

// Families of task groups in the workload table. A scenario written out
// from a generator (seed/newidle-rt-latency's 36 hackbench pipe ends
// "hackbench0_snd" .. "hackbench17_rcv" and 7 kernel-build jobs) has one
// row per expanded group, which ran off the side panel. Groups whose names
// share a stem (the leading letters: "hackbench" for "hackbench3_rcv" and
// for a generator's "hackbench.g0.snd") form a family when there are at
// least minFamily of them; a family shows as one generator row (its group
// count, total tasks and policy) that expands to its groups. Which
// families are open is a view setting (App.open, tabs.go), kept across
// runs and edits.

import (
	"fmt"
	"strings"
)

// minFamily is the fewest groups shown as a family row (two groups read
// fine as two rows: "hog" and "hog_nice5").
const minFamily = 3

// FamilyRow is a family's row, or (Family == "") a lone group's.
type FamilyRow struct {
	Family string     // the stem; "" for a group of its own
	Groups []GroupRow // the family's groups (one for a lone group)
	Tasks  int        // instances over the family
	Policy string     // the common policy, or "mixed"
	Color  string     // the first group's swatch
	Open   bool       // the family's groups are shown
}

// familyStem is the name's leading letters ("" if it starts otherwise).
func familyStem(name string) string {
	i := strings.IndexFunc(name, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') })
	if i < 0 {
		return name
	}
	return name[:i]
}

// families groups rows by stem, in the order of each family's first group.
func (c *Workload) families() []FamilyRow {
	rows := c.rows()
	count := map[string]int{}
	for _, r := range rows {
		count[familyStem(r.Name)]++
	}
	var out []FamilyRow
	at := map[string]int{} // stem -> index in out
	for _, r := range rows {
		stem := familyStem(r.Name)
		if stem == "" || count[stem] < minFamily {
			out = append(out, FamilyRow{Groups: []GroupRow{r}, Tasks: r.Instances, Policy: r.Policy, Color: r.Color})
			continue
		}
		k, ok := at[stem]
		if !ok {
			k = len(out)
			at[stem] = k
			out = append(out, FamilyRow{Family: stem, Policy: r.Policy, Color: r.Color, Open: c.App.SectionOpen(familyKey(stem))})
		}
		f := &out[k]
		f.Groups = append(f.Groups, r)
		f.Tasks += r.Instances
		if f.Policy != r.Policy {
			f.Policy = "mixed"
		}
	}
	return out
}

// familyKey is the family's entry in the page's open sections.
func familyKey(stem string) string { return "family:" + stem }

func (c *Workload) toggleFamily(stem string) { c.App.ToggleSection(familyKey(stem)) }

// familyHead is a family row's label: "▸ hackbench* (36 groups)".
func (f FamilyRow) familyHead() string {
	mark := "▸"
	if f.Open {
		mark = "▾"
	}
	return fmt.Sprintf("%s %s* (%d groups)", mark, f.Family, len(f.Groups))
}

// shown is the group rows the family shows: all of a lone group's, a
// family's only when open.
func (f FamilyRow) shown() []GroupRow {
	if f.Family == "" || f.Open {
		return f.Groups
	}
	return nil
}

// memberClass marks a family's group rows (indented under the family).
func memberClass(f FamilyRow) string {
	if f.Family == "" {
		return "group"
	}
	return "group member"
}
