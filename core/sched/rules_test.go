package sched

// The profile x rule matrix (rules.go) as a checked text file, the lint
// that keeps version comparisons in rules.go, and the agreement of the
// rules with the feature table (feature_versions.go).

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

const rulesMatrixFile = "testdata/kernel_rules.txt"

// describeRulesMatrix renders one row per rule (kernelRules field order)
// and one column per profile (oldest first), then the feature table the
// same way: "x" where the rule holds or the sched_feat exists, "." where
// not.
func describeRulesMatrix(profs []Profile) string {
	var b strings.Builder
	b.WriteString("# Kernel rules per profile: core/sched/rules.go (rows) x profiles() (columns).\n")
	b.WriteString("# x: the rule holds / the sched_feat exists; .: it does not.\n")
	b.WriteString("# Regenerate: go test ./core/sched -run TestKernelRulesMatrix -rewrite\n")
	rt := reflect.TypeOf(kernelRules{})
	names := make([]string, rt.NumField())
	for i := range names {
		names[i] = rt.Field(i).Name
	}
	feats := make([]string, numFeatures)
	for f := range numFeatures {
		feats[f] = f.String()
	}
	width := 0
	for _, n := range append(append([]string{}, names...), feats...) {
		width = max(width, len(n))
	}
	header := func(title string) {
		fmt.Fprintf(&b, "\n%-*s", width, title)
		for _, p := range profs {
			fmt.Fprintf(&b, "  %s", p.Name)
		}
		b.WriteString("\n")
	}
	row := func(name string, cell func(p *Profile) string) {
		fmt.Fprintf(&b, "%-*s", width, name)
		for i := range profs {
			fmt.Fprintf(&b, "  %-*s", len(profs[i].Name), cell(&profs[i]))
		}
		b.WriteString("\n")
	}
	mark := func(v bool) string {
		if v {
			return "x"
		}
		return "."
	}
	header("rule")
	for i, n := range names {
		row(n, func(p *Profile) string {
			v := reflect.ValueOf(rulesFor(p.version)).Field(i)
			if v.Kind() == reflect.Bool {
				return mark(v.Bool())
			}
			return fmt.Sprint(v)
		})
	}
	header("sched_feat")
	for f := range numFeatures {
		row(feats[f], func(p *Profile) string { return mark(f.AppliesTo(p.version)) })
	}
	lines := strings.Split(b.String(), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}

// TestKernelRulesMatrix checks the rules of every profile against the
// reviewed matrix; -rewrite regenerates it (review the diff).
func TestKernelRulesMatrix(t *testing.T) {
	got := describeRulesMatrix(Profiles())
	if *rewriteFlag {
		if err := os.WriteFile(rulesMatrixFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(rulesMatrixFile)
	if err != nil {
		t.Fatalf("%v (run with -rewrite to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("%s:%d:\n got  %q\n want %q", rulesMatrixFile, i+1, g, w)
			}
		}
		t.Fatalf("the profile x rule matrix changed; if intended, rerun with -rewrite and review the diff")
	}
}

// TestEveryRuleDistinguishesProfiles: a rule that is the same on every
// profile selects nothing and should not exist (its mechanism would read a
// constant).
func TestEveryRuleDistinguishesProfiles(t *testing.T) {
	rt := reflect.TypeOf(kernelRules{})
	for i := range rt.NumField() {
		seen := map[string]bool{}
		for _, p := range Profiles() {
			seen[fmt.Sprint(reflect.ValueOf(rulesFor(p.version)).Field(i))] = true
		}
		if len(seen) < 2 {
			t.Errorf("rule %s has the same value on every profile", rt.Field(i).Name)
		}
	}
}

// TestRulesAgreeWithFeatureTable: where a rule and a sched_feat come from
// the same kernel change, the rule holds exactly on the profiles whose
// features.h lists the feature; the fair class follows the feature table
// too (the CFS-only and EEVDF-only sched_feats).
func TestRulesAgreeWithFeatureTable(t *testing.T) {
	pairs := []struct {
		f    Feature
		rule func(r kernelRules) bool
		name string
	}{
		{PreemptShort, func(r kernelRules) bool { return r.preemptShort }, "preemptShort"},
		{PickBuddy, func(r kernelRules) bool { return r.pickBuddy }, "pickBuddy"},
		{SISUtil, func(r kernelRules) bool { return r.sisUtil }, "sisUtil"},
		{HybridClusterSeries, func(r kernelRules) bool { return r.hybridSeriesToggle }, "hybridSeriesToggle"},
		{UtilEst, func(r kernelRules) bool { return r.utilEst }, "utilEst"},
		// UTIL_EST_FASTUP is read by the {enqueued, ewma} forms only; the
		// single EWMA of v6.8 ramps up always.
		{UtilEstFastup, func(r kernelRules) bool { return r.utilEst && !r.utilEstSingleEWMA }, "utilEst && !utilEstSingleEWMA"},
	}
	for _, p := range Profiles() {
		r := rulesFor(p.version)
		for _, c := range pairs {
			if c.rule(r) != c.f.AppliesTo(p.version) {
				t.Errorf("%s: rule %s = %v but %s applies = %v", p.Name, c.name, c.rule(r), c.f, c.f.AppliesTo(p.version))
			}
		}
		eevdf := p.Class == ClassEEVDF
		for _, f := range []Feature{PlaceLag, RunToParity} {
			if f.AppliesTo(p.version) != eevdf {
				t.Errorf("%s: class %s but %s applies = %v", p.Name, p.Class, f, f.AppliesTo(p.version))
			}
		}
		if GentleFairSleepers.AppliesTo(p.version) == eevdf {
			t.Errorf("%s: class %s but GENTLE_FAIR_SLEEPERS applies = %v", p.Name, p.Class, !eevdf)
		}
		if (r.deadlineTree || r.vprot || r.preemptShort || r.yieldForfeit) && !eevdf {
			t.Errorf("%s: an EEVDF rule holds on a %s profile", p.Name, p.Class)
		}
	}
}

// versionComparisons returns file:line of every comparison in src that
// has a kernel version on one side: an identifier or field named version,
// or a call of a function whose name ends in version (Version(),
// kernelVersion()).
func versionComparisons(fset *token.FileSet, f *ast.File) []string {
	isVersion := func(e ast.Expr) bool {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x.Name == "version"
		case *ast.SelectorExpr:
			return x.Sel.Name == "version"
		case *ast.CallExpr: // p.Version(), s.kernelVersion()
			name := ""
			switch fn := x.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			return strings.HasSuffix(strings.ToLower(name), "version")
		}
		return false
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if be, ok := n.(*ast.BinaryExpr); ok {
			switch be.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
				if isVersion(be.X) || isVersion(be.Y) {
					out = append(out, fset.Position(be.Pos()).String())
				}
			}
		}
		if sw, ok := n.(*ast.SwitchStmt); ok && sw.Tag != nil && isVersion(sw.Tag) {
			out = append(out, fset.Position(sw.Pos()).String())
		}
		return true
	})
	return out
}

// TestOnlyRulesCompareVersions: no file of the package (tests included)
// but rules.go compares a kernel version; the mechanisms read Sim.rules.
func TestOnlyRulesCompareVersions(t *testing.T) {
	fset := token.NewFileSet()
	probe, err := parser.ParseFile(fset, "probe.go", "package p\nfunc f() bool { switch s.version {}; return s.version < 612 || p.Version() >= 600 || s.kernelVersion() == 0 }", 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := versionComparisons(fset, probe); len(got) != 4 {
		t.Fatalf("the lint finds %d of the 4 comparisons of its probe: %v", len(got), got)
	}
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) < 50 {
		t.Fatalf("found %d Go files in core/sched (%v)", len(files), err)
	}
	sort.Strings(files)
	for _, name := range files {
		if name == "rules.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, pos := range versionComparisons(fset, f) {
			t.Errorf("%s: compares a kernel version; add or read a rule of rules.go instead", pos)
		}
	}
}
