package experiment

// Naming systems: the rules that give each run its system (from the
// command line, the manifest, the document, the target), and the checks
// of the names and of the execution order.

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/loadverdict/loadverdict/ingest"
	"github.com/loadverdict/loadverdict/results"
)

// SystemRule names the system of every run whose source it matches. A
// rule that matches no source of the experiment is an error (*NameError).
type SystemRule struct {
	Name string
	// Sources are source names, matched exactly (--system NAME=PATH,
	// PATH expanded to its files).
	Sources []string
	// Patterns are manifest patterns (see Patterns).
	Patterns []string
	// Experiments match every source of these experiments (compare
	// --store OLD NEW).
	Experiments []string
	// Flag is how the rule was given, for messages (e.g.
	// "--system old=runs/old"); empty for the manifest's.
	Flag string
}

// NameError is returned by Report when a name matches nothing: a
// baseline that is no system, a system rule (or one of its patterns)
// that matches no source, a source claimed by two systems. It is about
// the settings, never the store: retrying cannot help. The command line
// exits 2 for it; in a bucket the manifest is rejected (Analyze).
type NameError struct {
	// Msg says what matched nothing.
	Msg string
	// Known are the experiment's systems, sorted.
	Known []string
}

func (e *NameError) Error() string {
	known := "none"
	if len(e.Known) > 0 {
		names := make([]string, len(e.Known))
		for i, k := range e.Known {
			names[i] = shownName(k)
		}
		known = strings.Join(names, ", ")
	}
	return e.Msg + "; the systems are: " + known
}

// shownName is a name as a message shows it: as it is, or quoted with Go's
// escapes when it is not printable (CheckName) or holds ", " (the
// separator of a list of names).
func shownName(name string) string {
	if CheckName(name) != nil || strings.Contains(name, ", ") || strings.HasPrefix(name, `"`) {
		return strconv.Quote(name)
	}
	return name
}

// namer names the systems of an analysis.
type namer struct {
	req     Request
	dir     string // the manifest's folder
	order   []string
	expRank map[string]int
	levels  [2][]SystemRule // the command line's rules, then the manifest's
	labels  []map[string]string
	known   []string // the systems, sorted, once named
	ranks   map[string]int
	// named are the runs (by run_id) whose system a rule or a label
	// mapping named (the others keep the label of the tables).
	named map[string]bool
}

func newNamer(req Request) *namer {
	n := &namer{req: req, expRank: map[string]int{}, ranks: map[string]int{}, named: map[string]bool{}}
	for i, e := range req.From {
		n.expRank[e] = i
	}
	m := req.Manifest
	n.levels[0] = req.Overrides.Systems
	n.labels = []map[string]string{req.Overrides.Labels}
	if m != nil {
		n.dir = strings.TrimSuffix(m.Dir, "/")
		n.order = append(n.order, m.Order...)
		n.levels[1] = m.systemRules()
		n.labels = append(n.labels, m.Labels)
	}
	n.order = append(n.order, req.Overrides.Order...)
	return n
}

// rel is a source's name relative to the manifest's folder, or "".
func (n *namer) rel(source string) string {
	if n.dir == "" || n.dir == "." {
		return ""
	}
	rel, ok := strings.CutPrefix(source, n.dir+"/")
	if !ok {
		return ""
	}
	return rel
}

// rank is a source's place in the given order: negative when listed,
// 0 (after every listed one) when not.
func (n *namer) rank(source string) int {
	if r, ok := n.ranks[source]; ok {
		return r
	}
	rel := n.rel(source)
	r := 0
	for i, o := range n.order {
		if o == source || rel != "" && o == rel {
			r = i - len(n.order)
			break
		}
	}
	n.ranks[source] = r
	return r
}

// matches tells whether rule r claims a source of experiment exp, and
// which of its entries did (an index into Sources, then Patterns, then
// Experiments).
func (n *namer) matches(r SystemRule, source, exp string) (bool, int) {
	rel := n.rel(source)
	for i, s := range r.Sources {
		if s == source {
			return true, i
		}
	}
	for i, pat := range r.Patterns {
		if matchPattern(pat, source) || rel != "" && matchPattern(pat, rel) {
			return true, len(r.Sources) + i
		}
	}
	for i, e := range r.Experiments {
		if e == exp {
			return true, len(r.Sources) + len(r.Patterns) + i
		}
	}
	return false, 0
}

// systemOf returns the source-named system of a source, "" for none.
// used records which rule entries matched a source.
// Every level is looked at, so that a rule overridden by a higher level
// still counts as matching.
func (n *namer) systemOf(source, exp string, used map[[3]int]bool) (string, error) {
	system := ""
	for lvl, rules := range n.levels {
		name := ""
		for ri, r := range rules {
			ok, entry := n.matches(r, source, exp)
			if !ok {
				continue
			}
			used[[3]int{lvl, ri, entry}] = true
			if name != "" && name != r.Name {
				return "", &NameError{Msg: fmt.Sprintf("source %s is matched by two systems, %q and %q", shownName(source), name, r.Name)}
			}
			name = r.Name
		}
		if system == "" {
			system = name
		}
	}
	return system, nil
}

// name sets every run's label to its system and checks that every rule
// entry matched a source (a run's or a rejected input's).
func (n *namer) name(runs []results.Run, rejs []Rejected) error {
	used := map[[3]int]bool{}
	cache := map[string]string{}
	known := map[string]bool{}
	var nameErr error
	keep := func(err error) {
		if err != nil && nameErr == nil {
			nameErr = err
		}
	}
	hps, docNamed := documentNamed(runs)
	for i := range runs {
		r := &runs[i]
		if name, ok := docNamed[r.Label]; ok && hps[i] == r.Label {
			r.Label = name
		}
		sys, ok := cache[r.Source]
		if !ok {
			var err error
			sys, err = n.systemOf(r.Source, r.Experiment, used)
			keep(err)
			cache[r.Source] = sys
		}
		if sys == "" {
			sys = n.mapped(r.Label, hps[i])
		}
		if sys != "" {
			r.Label = sys
			n.named[r.RunID] = true
		}
		known[r.Label] = true
	}
	// A system whose inputs were all rejected is still a system.
	for _, rej := range rejs {
		sys, err := n.systemOf(rej.Key, rej.Experiment, used)
		keep(err)
		if sys != "" {
			known[sys] = true
		}
	}
	n.known = slices.Sorted(maps.Keys(known))
	if nameErr != nil {
		nameErr.(*NameError).Known = n.known
		return nameErr
	}
	if err := n.unusedEntry(used); err != nil {
		return err
	}
	return n.checkOrder(runs, rejs)
}

// documentNamed returns each run's target host:port ("" without a
// target), and the names the document of one input gave a host:port (its
// tables' label differs from the host:port): such a name names that
// host:port in every input of the experiment, one address one system.
func documentNamed(runs []results.Run) (hps []string, docNamed map[string]string) {
	hps = make([]string, len(runs))
	docNamed = map[string]string{}
	for i, r := range runs {
		if r.Target == "" {
			continue
		}
		hps[i] = ingest.Label(r.Target, nil)
		if r.Label != hps[i] {
			docNamed[hps[i]] = r.Label
		}
	}
	return hps, docNamed
}

// mapped is the system a label mapping gives a run of label (or of target
// host:port hp: a label the input's own document gave, core.DocumentNames,
// is still mapped by its target), "" for none.
func (n *namer) mapped(label, hp string) string {
	for _, l := range n.labels {
		if name, ok := l[label]; ok {
			return name
		}
		if name, ok := l[hp]; ok && hp != "" {
			return name
		}
	}
	return ""
}

// unusedEntry is the error of the first rule entry that matched no input.
func (n *namer) unusedEntry(used map[[3]int]bool) error {
	for lvl, rules := range n.levels {
		for ri, r := range rules {
			entries := slices.Concat(r.Sources, r.Patterns, r.Experiments)
			for e, what := range entries {
				if used[[3]int{lvl, ri, e}] {
					continue
				}
				how := r.Flag
				if how == "" {
					how = "the manifest's systems." + r.Name
				}
				return &NameError{Msg: fmt.Sprintf("system %q: %s matched no input (%s)", r.Name, shownName(what), how), Known: n.known}
			}
		}
	}
	return nil
}

// checkOrder checks that every entry of the manifest's order: names an
// input (a run's source or a rejected input's key), as a system's
// pattern must.
func (n *namer) checkOrder(runs []results.Run, rejs []Rejected) error {
	m := n.req.Manifest
	if m == nil || len(m.Order) == 0 {
		return nil
	}
	var inputs []string
	seen := map[string]bool{}
	for _, r := range runs {
		if !seen[r.Source] {
			seen[r.Source] = true
			inputs = append(inputs, r.Source)
		}
	}
	for _, rej := range rejs {
		if !seen[rej.Key] {
			seen[rej.Key] = true
			inputs = append(inputs, rej.Key)
		}
	}
	for _, o := range m.Order {
		if slices.ContainsFunc(inputs, func(src string) bool { return o == src || o != "" && o == n.rel(src) }) {
			continue
		}
		shown := make([]string, 0, 10)
		for _, src := range inputs[:min(len(inputs), 10)] {
			if rel := n.rel(src); rel != "" {
				src = rel
			}
			shown = append(shown, shownName(src))
		}
		if len(inputs) > 10 {
			shown = append(shown, fmt.Sprintf("and %d more", len(inputs)-10))
		}
		return &NameError{Msg: fmt.Sprintf("the manifest's order: %s matched no input (the inputs are: %s)", shownName(o), strings.Join(shown, ", ")), Known: n.known}
	}
	return nil
}
