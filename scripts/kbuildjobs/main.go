// Command kbuildjobs measures the CPU time of the compile jobs of a real
// kernel build, the source of the `kbuild` generator's measured job-length
// distribution (core/scenario/kbuild_dist.go, dist "kbuild61";
// docs/placement.md "The measured build"). No kernel function: it drives
// kbuild and times its per-object recipes.
//
// Procedure (Debian 12: apt-get install linux-source-6.1 flex bison
// libelf-dev libssl-dev bc; unpack /usr/src/linux-source-6.1.tar.xz into a
// scratch directory; make defconfig; make -j2 prepare), then
//
//		go run ./scripts/kbuildjobs list -src /tmp/ksrc/linux-source-6.1 > /tmp/objs.txt
//		go run ./scripts/kbuildjobs measure -src /tmp/ksrc/linux-source-6.1 -list /tmp/objs.txt \
//		    -n 120 -seed 1 > docs/data/kbuild-6.1-defconfig-jobs.tsv
//		go run ./scripts/kbuildjobs summary docs/data/kbuild-6.1-defconfig-jobs.tsv
//
//	  - list: the objects of the defconfig build are the targets of kbuild's
//	    compile rules (cmd_cc_o_c, cmd_as_o_S: `$(CC) ... -c -o $@ $<`) that a
//	    dry run `make -n -k V=1 all` prints, kept if the command is a kernel
//	    compile (-nostdinc) of a .c or .S file outside scripts/ (host tools).
//	    The dry run stops at vmlinux.a (an archive only a real build makes),
//	    after every directory has been descended, so the boot image's objects
//	    (arch/x86/boot, built after vmlinux) are not in the list.
//	  - measure: a seeded random sample of the list (math/rand/v2 PCG) is
//	    built by kbuild (`make -k -j2 OBJ...`, which also makes the generated
//	    files an object needs); then each object's recipe, as kbuild recorded
//	    it in its .cmd file (the compile with objtool appended), is run again
//	    alone with `sh -c` after deleting the object, and the job's CPU time
//	    is the user + sys time of that shell and its waited-for children
//	    (gcc driver, cc1, as, objtool; wait4() rusage), which does not depend
//	    on how loaded the machine is. Objects kbuild could not build alone
//	    are reported on stderr and left out.
//	  - summary: mean, median, deciles, the tail, total, and the octile
//	    means relative to the mean (the generator's eight classes).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fail(fmt.Errorf("usage: kbuildjobs list|measure|summary [flags]"))
	}
	var err error
	switch os.Args[1] {
	case "list":
		err = cmdList(os.Args[2:])
	case "measure":
		err = cmdMeasure(os.Args[2:])
	case "summary":
		err = cmdSummary(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q: want list, measure or summary", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "kbuildjobs:", err)
	os.Exit(1)
}

// compileRe matches the `-c -o OBJ SRC` of kbuild's cmd_cc_o_c / cmd_as_o_S.
var compileRe = regexp.MustCompile(` -c -o (\S+\.o) (\S+\.[cS])(?:\s|$)`)

// objects returns the "obj src" pairs of kernel compiles in a dry-run log,
// sorted and unique.
func objects(log []byte) []string {
	seen := map[string]bool{}
	var out []string
	for _, line := range strings.Split(string(log), "\n") {
		if !strings.Contains(line, "-nostdinc") {
			continue
		}
		for _, m := range compileRe.FindAllStringSubmatch(line, -1) {
			if strings.HasPrefix(m[1], "scripts/") {
				continue
			}
			k := m[1] + " " + m[2]
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

func cmdList(args []string) error {
	fs := flag.NewFlagSet("list", flag.ExitOnError)
	src := fs.String("src", "", "configured and prepared kernel tree")
	fs.Parse(args)
	if *src == "" {
		return fmt.Errorf("list: -src is required")
	}
	cmd := exec.Command("make", "-n", "-k", "V=1", "all")
	cmd.Dir = *src
	out, _ := cmd.Output() // exits non-zero at vmlinux.a; the compile lines are all there
	objs := objects(out)
	if len(objs) == 0 {
		return fmt.Errorf("list: no kernel compile in the dry run of %s", *src)
	}
	for _, o := range objs {
		fmt.Println(o)
	}
	fmt.Fprintf(os.Stderr, "%d objects\n", len(objs))
	return nil
}

func cmdMeasure(args []string) error {
	fs := flag.NewFlagSet("measure", flag.ExitOnError)
	src := fs.String("src", "", "configured and prepared kernel tree")
	list := fs.String("list", "", "output of `kbuildjobs list`")
	n := fs.Int("n", 100, "sample size")
	seed := fs.Uint64("seed", 1, "sample seed")
	fs.Parse(args)
	if *src == "" || *list == "" {
		return fmt.Errorf("measure: -src and -list are required")
	}
	data, err := os.ReadFile(*list)
	if err != nil {
		return err
	}
	all := strings.Fields(string(data))
	var objs []string
	for i := 0; i+1 < len(all); i += 2 {
		objs = append(objs, all[i])
	}
	r := rand.New(rand.NewPCG(*seed, 0x6b6275696c64))
	r.Shuffle(len(objs), func(a, b int) { objs[a], objs[b] = objs[b], objs[a] })
	sample := objs[:min(*n, len(objs))]
	slices.Sort(sample)

	build := exec.Command("make", append([]string{"-k", "-j2"}, sample...)...)
	build.Dir, build.Stdout, build.Stderr = *src, os.Stderr, os.Stderr
	_ = build.Run() // -k: objects that failed are found below

	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintf(w, "# kbuildjobs measure: %d of %d defconfig objects, seed %d\n", len(sample), len(objs), *seed)
	fmt.Fprintf(w, "# cpu: %s; compiler: %s\n", cpuModel(), firstLine(exec.Command("gcc", "--version")))
	fmt.Fprintf(w, "object\tuser_s\tsys_s\tcpu_s\twall_s\n")
	for _, o := range sample {
		rec, err := recipe(*src, o)
		if err != nil {
			fmt.Fprintf(os.Stderr, "skip %s: %v\n", o, err)
			continue
		}
		os.Remove(filepath.Join(*src, o))
		c := exec.Command("sh", "-c", rec)
		c.Dir, c.Stderr = *src, os.Stderr
		t0 := time.Now()
		if err := c.Run(); err != nil {
			fmt.Fprintf(os.Stderr, "skip %s: recipe failed: %v\n", o, err)
			continue
		}
		wall := time.Since(t0)
		u, s := c.ProcessState.UserTime(), c.ProcessState.SystemTime()
		fmt.Fprintf(w, "%s\t%.3f\t%.3f\t%.3f\t%.3f\n", o, u.Seconds(), s.Seconds(), (u + s).Seconds(), wall.Seconds())
		w.Flush()
	}
	return nil
}

// recipe is the command kbuild ran for obj, from the first line of its
// .cmd file ("cmd_OBJ := ..." in 6.1, "savedcmd_OBJ := ..." from 6.2).
func recipe(src, obj string) (string, error) {
	f := filepath.Join(src, filepath.Dir(obj), "."+filepath.Base(obj)+".cmd")
	data, err := os.ReadFile(f)
	if err != nil {
		return "", fmt.Errorf("not built (no %s)", f)
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	_, cmd, ok := strings.Cut(string(line), " := ")
	if !ok {
		return "", fmt.Errorf("%s: no command line", f)
	}
	return cmd, nil
}

func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "model name") {
			_, v, _ := strings.Cut(l, ":")
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

func firstLine(c *exec.Cmd) string {
	out, err := c.Output()
	if err != nil {
		return "unknown"
	}
	l, _, _ := strings.Cut(string(out), "\n")
	return l
}
