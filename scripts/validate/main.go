// Command validate regenerates docs/VALIDATION.md from scratch (`make
// validate`): the five mailing-list experiments (S1-S5, listed in the report) run by
// `schedplay validate` (each seed preset's thread table with the published
// numbers, tolerances and pass/fail), the throttling lab (every cgroup/
// preset, the same way), then the real-kernel comparison
// measured on this machine by scripts/realkernel (which also rewrites
// docs/real-kernel.md and docs/real-kernel.json). Nothing in the report is
// typed by hand: every number comes from a run made by this command, and
// the report states the date, commit, kernel and machine.
//
// Usage, from the repository root (root is needed for the real-kernel part:
// chrt, schedstats):
//
//	go run ./scripts/validate [-o docs/VALIDATION.md] [-runs N] [-realkernel-duration 10s] [-skip-realkernel]
//	    [-skip-replay] [-replay-only-section]
//
// Section 4, trace replay on this machine, comes from scripts/replaytrace
// (docs/replay-fidelity.md: it records traces with tracefs, as root;
// -skip-realkernel skips it too, plan.go);
// -replay-only-section puts the existing docs/replay-fidelity.md into the
// existing report as section 4, keeping sections 1-3 as they were (`make
// replay-fidelity` records, then does that).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"
)

// seeds are the five thread presets with the labels (S1-S5) that code and
// docs cite them by; the report's section 1 lists them.
var seeds = []struct{ name, section string }{
	{"seed/sm-idle-ipistorm", "S1"},
	{"seed/newidle-rt-latency", "S2"},
	{"seed/cluster-hybrid", "S3"},
	{"seed/nohz-pipe", "S4"},
	{"seed/sched-idle-wakeup", "S5"},
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "validate:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	out := fs.String("o", "docs/VALIDATION.md", "report to write")
	runs := fs.Int("runs", 0, "seeds per cell (default: each experiment's own)")
	rkDur := fs.Duration("realkernel-duration", 10*time.Second, "measurement time per real-kernel case")
	skipRK := fs.Bool("skip-realkernel", false, "do not measure the real kernel nor record traces (both need root; the report says so)")
	skipReplay := fs.Bool("skip-replay", false, "do not record and replay traces (the report says so)")
	replayOnly := fs.Bool("replay-only-section", false, "replace only section 4 (trace replay) of the existing report with docs/replay-fidelity.md, recording nothing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("usage: go run ./scripts/validate [-o FILE] [-runs N] [-realkernel-duration D] [-skip-realkernel]")
	}
	if *replayOnly {
		return replaySection(*out)
	}
	p := planFor(*skipRK, *skipReplay)
	if msg := p.skipped(); msg != "" {
		fmt.Fprintln(os.Stderr, "validate:", msg)
	}
	rev := commit() // before the real-kernel harness rewrites its case files
	tmp, err := os.MkdirTemp("", "validate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "schedplay")
	if err := sh(os.Stderr, "go", "build", "-o", bin, "./core/cmd/schedplay"); err != nil {
		return err
	}
	var presets bytes.Buffer
	if err := sh(&presets, bin, "presets"); err != nil {
		return err
	}
	var have, missing []string
	for _, s := range seeds {
		if strings.Contains(presets.String(), s.name+" ") || strings.Contains(presets.String(), s.name+"\t") {
			have = append(have, s.name)
		} else {
			missing = append(missing, s.section+" `"+s.name+"`")
		}
	}
	fmt.Fprintf(os.Stderr, "validate: running %s\n", strings.Join(have, ", "))
	vargs := []string{"validate", "-o", "markdown", "-progress"}
	if *runs > 0 {
		vargs = append(vargs, "-runs", fmt.Sprint(*runs))
	}
	var seedMD bytes.Buffer
	if err := sh(&seedMD, bin, append(vargs, have...)...); err != nil {
		return err
	}
	var lab []string // the throttling lab: every cgroup/ preset
	for _, line := range strings.Split(presets.String(), "\n") {
		if f := strings.Fields(line); len(f) > 0 && strings.HasPrefix(f[0], "cgroup/") {
			lab = append(lab, f[0])
		}
	}
	var labMD bytes.Buffer
	if len(lab) > 0 {
		fmt.Fprintf(os.Stderr, "validate: running %s\n", strings.Join(lab, ", "))
		if err := sh(&labMD, bin, append(vargs, lab...)...); err != nil {
			return err
		}
	}
	var rk string
	if !p.measureRK {
		rk = "Not measured in this run (`-skip-realkernel`). `make validate` measures it; " +
			"the last measurement is in [real-kernel.md](real-kernel.md).\n"
	} else {
		if err := sh(os.Stderr, "go", "run", "./scripts/realkernel", "-duration", rkDur.String(),
			"-o", "docs/real-kernel.md", "-json", "docs/real-kernel.json"); err != nil {
			return fmt.Errorf("real-kernel measurement: %v (run as root, or use -skip-realkernel)", err)
		}
		b, err := os.ReadFile("docs/real-kernel.md")
		if err != nil {
			return err
		}
		rk = demote(string(b))
	}
	var b strings.Builder
	b.WriteString("# Validation report\n\n")
	b.WriteString("Generated by `make validate` (`go run ./scripts/validate`); do not edit: every number below comes from the runs of that command.\n\n")
	fmt.Fprintf(&b, "| | |\n|---|---|\n| date | %s |\n| commit | %s |\n| Go | %s |\n| machine | %s |\n| kernel | %s |\n\n",
		time.Now().UTC().Format(time.RFC3339), rev, runtime.Version(), cpuModel(), kernel())
	b.WriteString("## 1. The five mailing-list experiments\n\n")
	b.WriteString("Each `seed/` preset reproduces a Linux scheduler thread (code and docs cite them as " + seedLabels() + "): " +
		"its configurations and machines, the simulator's table, and the thread's published numbers with the " +
		"tolerance each must meet. *Calibration* results depend on documented hw cost parameters (docs/costs.md, `schedplay keys`); " +
		"*emergent* ones follow from kernel rules alone and were not tuned. A `FAIL` is reported as it is.\n\n")
	if len(missing) > 0 {
		fmt.Fprintf(&b, "Not reproduced yet (no preset in this build): %s.\n\n", strings.Join(missing, ", "))
	}
	b.WriteString(seedMD.String())
	b.WriteString("\n## 2. The throttling lab\n\n")
	b.WriteString("The `cgroup/` presets reproduce published cases of CFS bandwidth control and group scheduling " +
		"(commit messages, LKML threads, the authors' test programs): each with the source's numbers and tolerances, " +
		"judged as the seed experiments are. A case that does not reproduce says so, and why, in its explanation.\n\n")
	if len(lab) == 0 {
		b.WriteString("No `cgroup/` preset in this build.\n")
	}
	b.WriteString(labMD.String())
	b.WriteString("\n## 3. Real kernel vs simulator on this machine\n\n")
	b.WriteString(rk)
	if !p.recordReplay {
		b.WriteString(replayHeading + "Not recorded in this run (`" + p.replayFlag + "`). `make validate` records it; " +
			"the last recording is in [replay-fidelity.md](replay-fidelity.md).\n")
	} else {
		md, err := replayMD(true)
		if err != nil {
			return err
		}
		b.WriteString(md)
	}
	if err := os.WriteFile(*out+".tmp", []byte(b.String()), 0o644); err != nil {
		return err
	}
	if err := os.Rename(*out+".tmp", *out); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "wrote", *out)
	return nil
}

const replayHeading = "\n## 4. Trace replay on this machine\n\n"

// replayMD returns section 4 from docs/replay-fidelity.md, after
// recording and replaying the traces (scripts/replaytrace) if record.
func replayMD(record bool) (string, error) {
	if record {
		if err := sh(os.Stderr, "go", "run", "./scripts/replaytrace", "-o", "docs/replay-fidelity.md", "-json", "docs/replay-fidelity.json"); err != nil {
			return "", fmt.Errorf("trace replay: %v (run as root with tracefs, or use -skip-replay)", err)
		}
	}
	b, err := os.ReadFile("docs/replay-fidelity.md")
	if err != nil {
		return "", err
	}
	md := string(b)
	if i := strings.Index(md, "\n"); i >= 0 { // the report's own title
		md = strings.TrimLeft(md[i:], "\n")
	}
	return replayHeading + demote(md), nil
}

// replaySection replaces (or appends) section 4 of the report at path.
func replaySection(path string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	md, err := replayMD(false)
	if err != nil {
		return err
	}
	s := string(old)
	if i := strings.Index(s, replayHeading); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimRight(s, "\n") + "\n" + md
	if err := os.WriteFile(path+".tmp", []byte(s), 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

// seedLabels lists the presets by label: "S1 `seed/...`, S2 ...".
func seedLabels() string {
	var l []string
	for _, s := range seeds {
		l = append(l, s.section+" `"+s.name+"`")
	}
	return strings.Join(l, ", ")
}

// demote turns the real-kernel report's headings one level down and
// drops its title.
func demote(md string) string {
	lines := strings.Split(md, "\n")
	var out []string
	for i, l := range lines {
		if i == 0 && strings.HasPrefix(l, "# ") {
			continue
		}
		if strings.HasPrefix(l, "#") {
			l = "#" + l
		}
		out = append(out, l)
	}
	return strings.TrimLeft(strings.Join(out, "\n"), "\n")
}

func sh(stdout interface{ Write([]byte) (int, error) }, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Stdout = stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return nil
}

func commit() string {
	out, err := exec.Command("git", "describe", "--always", "--dirty").Output()
	if err != nil {
		return "unknown (not a git checkout)"
	}
	return "`" + strings.TrimSpace(string(out)) + "`"
}

func kernel() string {
	r, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	v, _ := os.ReadFile("/proc/sys/kernel/version")
	return strings.TrimSpace(string(r)) + " (`" + strings.TrimSpace(string(v)) + "`)"
}

var modelRE = regexp.MustCompile(`(?m)^model name\s*:\s*(.+)$`)

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	m := modelRE.FindSubmatch(b)
	model := "unknown CPU"
	if m != nil {
		model = strings.TrimSpace(string(m[1]))
	}
	return fmt.Sprintf("%s, %d CPUs", model, runtime.NumCPU())
}
