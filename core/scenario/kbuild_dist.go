package scenario

// Job-length distributions of the `kbuild` generator (parameter `dist`).
// No kernel function: the shape of the work a parallel build hands the
// scheduler.
//
// A build has `jobs` compile jobs in eight equally frequent classes (job i
// has class i mod 8, in a seeded order, workload_kbuild.go); a class's CPU
// burst is `run` times its shape factor, the factors averaging 1, so `run`
// stays the mean burst under every shape.
//
//   - "uniform" (the default, the generator's original shape): class c has
//     (2c+1)/8 of `run`, the midpoints of eight equal slices of (0, 2 run).
//     Existing scenarios and share URLs keep this meaning.
//   - "kbuild61": the measured shape of a Linux 6.1 x86_64 defconfig
//     build. Class c is the mean of the c-th octile of the per-object
//     compile CPU times (user + sys of the recipe: gcc driver, cc1, as,
//     objtool) of a seeded random sample of the build's objects, relative
//     to the sample's mean (docs/data/kbuild-6.1-defconfig-jobs.tsv, made
//     by scripts/kbuildjobs; summary in docs/placement.md "The measured
//     jobs"). The factors are in per mille; TestKbuildDistMatchesData
//     recomputes them from the data file.
//
// SIMPLIFIED: eight classes stand for the continuous distribution (the
// longest octile's mean stands for its tail); the shape is that of one
// machine and compiler (gcc 12.2 on a Zen 3 server core), assumed the same
// on the simulated machine, where only the mean (`run`) is scaled.

// kbuildDists are the accepted values of the `dist` parameter.
var kbuildDists = []string{"uniform", "kbuild61"}

// kbuild61Permille are the octile means of the measured 6.1 defconfig
// compile jobs, shortest first, relative to the mean (per mille).
var kbuild61Permille = [kbuildClasses]int64{315, 579, 710, 834, 942, 1075, 1327, 2216}

// kbuildBurst is the CPU burst of class c for mean run under dist.
func kbuildBurst(dist string, run Duration, c int) Duration {
	if dist == "kbuild61" {
		return max(run*Duration(kbuild61Permille[c])/1000, 1)
	}
	return max(run*Duration(2*c+1)/kbuildClasses, 1)
}
