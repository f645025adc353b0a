package scenario

// Generator "ipistorm": the ipistorm test module of S1 (docs/VALIDATION.md)
// (`numipi=100000 single=1 offset=8 cpulist=8 wait=1`): each sender CPU c
// sends numipi call-function IPIs to CPU c+offset one at a time with
// smp_call_function_single(c+offset, nop, wait=1), spinning in
// csd_lock_wait() until the target ran the function (the ipi step,
// core/sched/csd.go). The senders are kernel threads of the module
// (modelled as tasks pinned to their CPU, their spinning counted as sys
// time); the workload completes when every sender sent its numipi.
//
// SIMPLIFIED: the module's cpulist is a list of sender CPUs; here the
// senders are `senders` consecutive CPUs from `cpu`. single=0
// (smp_call_function_many() to every other CPU) and wait=0 (fire and
// forget, csd not waited for) are refused: the engine models the
// single-target, waiting call only.

import "strconv"

var genIPIStorm = &generator{
	kind:   "ipistorm",
	models: "the ipistorm test module (S1 in docs/VALIDATION.md): sender CPUs each send numipi call-function IPIs to CPU+offset one at a time, spinning until each ran (smp_call_function_single(..., wait=1))",
	params: []Param{
		{Name: "numipi", Type: PInt, Default: "100000", Min: 1, Max: 10000000, Help: "IPIs each sender sends"},
		{Name: "cpu", Type: PInt, Default: "0", Min: 0, Max: 4095, Help: "first sender CPU (the module's cpulist)"},
		{Name: "senders", Type: PInt, Default: "1", Min: 1, Max: 4096, Help: "sender CPUs: cpu, cpu+1, ..."},
		{Name: "offset", Type: PInt, Default: "1", Min: 1, Max: 4095, Help: "each sender's target is its CPU + offset (single=1)"},
		{Name: "single", Type: PBool, Default: "true", Help: "one target per sender (smp_call_function_single); false is not modelled"},
		{Name: "wait", Type: PBool, Default: "true", Help: "spin until the target ran the function (csd_lock_wait); false is not modelled"},
	},
	expand: expandIPIStorm,
}

func expandIPIStorm(x *expander) error {
	if !x.bool("single") {
		return x.fail("single", "false: smp_call_function_many() to every CPU is not modelled; use single=true")
	}
	if !x.bool("wait") {
		return x.fail("wait", "false: fire-and-forget calls are not modelled; use wait=true")
	}
	first, n, off := x.int("cpu"), x.int("senders"), x.int("offset")
	if last := first + n - 1; last >= x.ncpu {
		return x.fail("senders", "sender CPUs %d-%d: the machine has CPUs 0-%d", first, last, x.ncpu-1)
	}
	if last := first + n - 1 + off; last >= x.ncpu {
		return x.fail("offset", "%d: target CPU %d does not exist (CPUs 0-%d)", off, last, x.ncpu-1)
	}
	for i := 0; i < n; i++ {
		c := first + i
		if c+off >= first && c+off < first+n {
			return x.fail("offset", "%d: CPU %d would be both a sender and a target", off, c+off)
		}
		part := ""
		if n > 1 {
			part = "cpu" + strconv.Itoa(c)
		}
		x.add(Task{Name: x.group(part), Instances: 1, CPUs: []int{c}, Loop: x.int("numipi"),
			Program: []Step{{Kind: "ipi", IPI: &IPI{CPU: c + off, Wait: true}}}})
	}
	return nil
}
